"""Second readings of docs/rules.md, written from the rules alone, for tests only: never imported by the project."""
