"""From plans to media: render one storyboard, build the chapter, estimate, provenance, review.

This package sits above `scenes` (it imports scene classes to render them); nothing in
`scenes` or `layerwise_core` imports it.
"""
