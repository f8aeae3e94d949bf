"""Project → Results: medians, ranges and ratios."""
