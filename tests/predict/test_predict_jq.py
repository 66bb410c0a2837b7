"""jq replies to the json-write tasks, predicted and executed: the object jq prints decides the
file, and a filter damaged on the way is jq's compile error."""

from predicting import ListedReplies
from qbcore import suite
from qbcore.predict import predict

# (task, reply, passes under raw)
REPLIES = [
    ("json-write/t1-quotes", "jq -n --arg m \"it's a \\\"test\\\"\" '{message: $m}' > config.json", True),
    ("json-write/t1-quotes", "jq -nc --arg m \"it's a \\\"test\\\"\" '{\"message\": $m}' > config.json", True),
    ("json-write/t1-quotes", "jq -n --arg m 'x' '{message: $m}' > config.json", False),
    ("json-write/t0-plain", "jq -n '{message: \"hello\"}' > config.json", True),
    ("json-write/t0-plain", "jq -n \"{message: hello}\" > config.json", False),  # hello/0 is not defined
    ("json-write/t0-plain", "jq -n --arg m hello '{$m}' > config.json", False),  # the key is m
    ("json-write/t0-plain", "jq -n --arg message hello '{$message}' > config.json", True),
    ("json-write/t0-plain", "echo '{\"message\": \"hello\"}' | jq . > config.json", True),
    ("json-write/t0-plain", "printf '{\"message\": \"hello\", \"x\": 1}' | jq '{message}' > config.json", True),
    ("json-write/t0-plain", "jq -n '{message: \"hello\"' > config.json || echo '{}' > config.json", False),
    ("json-write/t2-backslash", "jq -n --arg m 'C:\\temp\\new folder' '{message: $m}' > config.json", True),
    ("json-write/t3-gnarly", "jq -n --arg m 'He said: \"mix $HOME & C:\\new\" (100%)' '{message: $m}' > config.json", True),
]
TRANSPORTS = ("raw", "nested", "single", "stdin")


class TestJqReplies(ListedReplies):
    REPLIES = REPLIES
    TRANSPORTS = TRANSPORTS

    def test_most_pairs_are_decided(self, outcomes):
        cases, _ = outcomes
        decided = sum(predict(suite.get(task), reply, transport).certain for task, reply, transport in cases)
        assert decided >= 0.9 * len(cases), f"decided {decided} of {len(cases)}"
