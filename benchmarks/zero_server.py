"""A zero-latency OpenAI-compatible endpoint on 127.0.0.1 (raw asyncio HTTP/1.1, keep-alive).

It answers every POST with the same small chat completion, so a benchmark measures the client.
Usage: python benchmarks/zero_server.py PORT_FILE [LATENCY_S]
(writes the chosen port, serves until killed; with LATENCY_S every reply waits that long)
"""

from __future__ import annotations

import asyncio
import json
import sys

BODY = json.dumps(
    {
        "id": "bench",
        "object": "chat.completion",
        "created": 0,
        "model": "bench",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": '{"answer": "UNSAT"}'},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 6, "total_tokens": 106},
    }
).encode()
RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
    len(BODY),
    BODY,
)


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            if length:
                await reader.readexactly(length)
            if LATENCY:
                await asyncio.sleep(LATENCY)
            writer.write(RESPONSE)
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main(port_file: str) -> None:
    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
    port = server.sockets[0].getsockname()[1]
    with open(port_file, "w") as f:
        f.write(str(port))
    async with server:
        await server.serve_forever()


LATENCY = float(sys.argv[2]) if __name__ == "__main__" and len(sys.argv) > 2 else 0.0

if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
