"""files → the validated Project: readers with line marks, validation, derived metrics."""
