"""Models of the utilities scripts call, over a virtual file tree (imports nothing else of qbcore)."""

from .context import CommandContext, CommandResult, unknown
from .vfs import Budget, VfsBudgetExceeded, VfsError, VirtualTree

__all__ = ["Budget", "CommandContext", "CommandResult", "VfsBudgetExceeded", "VfsError",
           "VirtualTree", "unknown"]
