"""Dominoes for CASINO-ROYAL."""
