"""The ``python3`` command model: a program's effect on the virtual tree, without running it.

``model(ctx)`` follows the command-model protocol of ``qbcore.model.utilities``;
docs/pymodel.md lists the modelled subset.
"""

from .command import model, python3_model
from .signals import Limits

__all__ = ["model", "python3_model", "Limits"]
