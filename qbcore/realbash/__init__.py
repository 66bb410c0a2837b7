"""The real-bash side: sandbox, executor, validators, fixtures, probe, real ssh.

Everything here runs real bash (inside bubblewrap) and is the referee of the
model; the task suite it runs is qbcore.suite.
"""
