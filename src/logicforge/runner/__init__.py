"""The runner: Items × model × samples → durable, resumable records."""

from .cache import ResponseCache
from .records import record_id
from .runner import run_model
from .store import RecordStore, read_jsonl, write_jsonl

__all__ = ["ResponseCache", "RecordStore", "read_jsonl", "write_jsonl", "run_model", "record_id"]
