"""Batch work over stored replies: reading them, screening them, logging results.

Uses the harness layer; never runs a reply.
"""
