"""The harness layer: transports, escaping filters and simulate.

What a harness layer does to a reply (wrap, escape) and what the inner
shell then receives (simulate, over the static model).
"""
