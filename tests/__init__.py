"""arena's test suite; shared helpers live in this package's modules."""
