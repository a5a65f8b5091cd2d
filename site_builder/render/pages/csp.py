"""The Content-Security-Policy of the pages: one strict policy for every page, and the one a
page with a Mermaid diagram needs (`diagrams.diagram_policy`: inline styles, nothing more)."""

from __future__ import annotations

from site_builder.render.markdown.diagrams import diagram_policy

__all__ = ["CONTENT_SECURITY_POLICY", "DIAGRAM_CONTENT_SECURITY_POLICY"]

# Every page satisfies this policy: no inline script or style anywhere, and search fetches
# only the site's own files. Images from https: are allowed because record bodies may embed
# diagrams hosted elsewhere.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
])
DIAGRAM_CONTENT_SECURITY_POLICY = diagram_policy(CONTENT_SECURITY_POLICY)
