"""Match records: the JSONL files that ratings, reports, replays and resumes read.

Records are data and logs are for people: :class:`RecordWriter` writes one
JSON line per finished match to its own file, and :func:`configure_logging`
sends operational logs (structlog's) to stderr.
docs/records.md documents the schema.
"""

from ._bounds import MAX_DETAIL, MAX_NAME, clip, printable
from ._faults import FLAG_MIN_MATCHES, BotFaults, FaultLog, short_detail
from ._logging import LOG_FILE_ENV, configure_logging, get_logger
from ._public import public_fault, public_fault_detail, public_record
from ._reader import (
    RECORDS,
    TABLE_RECORDS,
    RecordError,
    no_records_here,
    parse_record,
    read_records,
    record_lines,
    records_path,
)
from ._schema import SCHEMA, RecordedMove, deal_movers, deal_moves, deal_times
from ._summary import SUMMARY, parse_summary
from ._tail import READ_BYTES, TailReader, cut_torn_line
from ._writer import RecordWriter

__all__ = ["RECORDS", "RecordError", "RecordWriter", "configure_logging", "get_logger",
           "read_records", "records_path"]
__all__ += ["FLAG_MIN_MATCHES", "LOG_FILE_ENV", "BotFaults", "FaultLog", "short_detail"]
__all__ += ["TABLE_RECORDS", "no_records_here", "parse_record", "record_lines"]
__all__ += ["SCHEMA", "RecordedMove", "deal_movers", "deal_moves", "deal_times"]
__all__ += ["public_fault", "public_fault_detail", "public_record"]
__all__ += ["MAX_DETAIL", "MAX_NAME", "clip", "printable"]
__all__ += ["READ_BYTES", "TailReader", "cut_torn_line"]
__all__ += ["SUMMARY", "parse_summary"]
