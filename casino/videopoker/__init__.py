"""Double Bonus 10/7 video poker: rules, the seed's strategy, shells, simulation and GUI."""
