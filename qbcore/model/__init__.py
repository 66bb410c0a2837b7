"""The static model of bash: expansion, evaluation, the command registry and the file view.

Predicts what the shell does with a parsed command without running it;
it reads the syntax layer only.
"""
