"""The four pig games. Each subpackage is a Django app around a pure-Python engine."""
