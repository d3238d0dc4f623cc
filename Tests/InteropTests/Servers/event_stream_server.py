"""Server-sent events from sse-starlette under uvicorn, for Courier's interop tests.

Routes:
  /events?count=N&interval_ms=M&retry=R   N events named `tick` with ids 1...N and JSON data
                                          ({"n": id}), one every M ms (0); with a Last-Event-ID
                                          header it goes on after that id; R sets `retry:`
  /events/multiline                       one event whose data has three lines, then a comment
  /events/close-after?count=N             N events with ids, then the server ends the response

Every request (its path, query and header fields) goes to the JSON-lines file given with
--record: the server's own record. It prints `READY {"http": PORT}` once it listens, and exits
when its standard input closes.
"""

import argparse
import asyncio
import json
import os
import socket
import sys
import threading

import uvicorn
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route

from interop_lifetime import exit_when_stdin_closes

record_file = None


def record(request: Request):
    if record_file is None:
        return
    line = {"path": request.url.path, "query": request.url.query, "headers": [[k, v] for k, v in request.headers.items()]}
    record_file.write(json.dumps(line) + "\n")
    record_file.flush()


def last_event_id(request: Request) -> int:
    try:
        return int(request.headers.get("last-event-id", "0"))
    except ValueError:
        return 0


async def events(request: Request):
    record(request)
    count = int(request.query_params.get("count", "3"))
    interval = int(request.query_params.get("interval_ms", "0")) / 1000
    retry = request.query_params.get("retry")
    start = last_event_id(request) + 1

    async def stream():
        for number in range(start, count + 1):
            yield ServerSentEvent(data=json.dumps({"n": number}), event="tick", id=str(number), retry=int(retry) if retry else None)
            if interval:
                await asyncio.sleep(interval)

    return EventSourceResponse(stream())


async def multiline(request: Request):
    record(request)

    async def stream():
        yield ServerSentEvent(data="first line\nsecond line\nthird line", event="poem", id="1")
        yield ServerSentEvent(comment="a comment the client ignores")

    return EventSourceResponse(stream())


async def close_after(request: Request):
    record(request)
    count = int(request.query_params.get("count", "2"))
    start = last_event_id(request) + 1

    async def stream():
        for number in range(start, start + count):
            yield ServerSentEvent(data=str(number), id=str(number))

    return EventSourceResponse(stream())


app = Starlette(
    routes=[
        Route("/events", events),
        Route("/events/multiline", multiline),
        Route("/events/close-after", close_after),
    ]
)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    arguments = parser.parse_args()
    global record_file
    record_file = open(arguments.record, "a", encoding="utf-8")
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.01)
    print("READY " + json.dumps({"http": listener.getsockname()[1]}), flush=True)
    await serving


if __name__ == "__main__":
    asyncio.run(main())
