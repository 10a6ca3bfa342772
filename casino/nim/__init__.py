"""Nimsys (Melbourne COMP90041, Projects A, B and C): Nim, the advanced game, AI players.

``NimAIPlayer`` is the Python form of the seed's ``Testable`` interface.
"""

from casino.nim.ai import NimAIPlayer

__all__ = ["NimAIPlayer"]
