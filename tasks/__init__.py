"""The QuoteBench-style task suite as data, installed as ``qbcore.suite``."""
