"""The UTS #58 algorithms, one module per section of the standard.

- ``termination``: §3.5.1 URL Link Detection Termination Algorithm
- ``escaping``: §4.1 URL Minimal Escaping Algorithm (and §10 formatting)
- ``email``: §5.2 Email Detection Algorithm, §5.3 Email Minimal Quoting Algorithm
- ``hosts``: the host stage §1.4 and §8 leave to WHATWG URL and the registrable domain
- ``migration``: §10 Migration, refining a backend's spans
"""
