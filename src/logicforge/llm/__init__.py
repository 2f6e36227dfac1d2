"""Models as tools: stories written by a model and proven faithful, the LLM verbaliser,
back-translation of edited sentences, and judges whose readings the solver re-checks."""

from .story import StoryConfig, StoryRenderer, story_stats

__all__ = ["StoryConfig", "StoryRenderer", "story_stats"]
