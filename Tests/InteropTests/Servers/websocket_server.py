"""A WebSocket server built on the `websockets` library (asyncio API), for Courier's interop tests.

Routes, by path (any query is read as options):
  /echo                    sends back every message it receives
  /close?code=N&reason=R   closes at once with that code and reason
  /drop?after=N            drops the TCP connection without a close frame, after N messages (0)
  /drop-once?key=K&after=N the first connection with key K drops as /drop does; later ones echo
  /silent                  echoes, but never answers a ping
  /stop-reading            accepts, then never reads again: the client's sends fill the buffers
  /big?bytes=N             sends one binary message of N bytes, then echoes
  /speak-first             sends "hello from the server" right after the upgrade, then echoes
  /unauthorized            answers the handshake with 401 and a JSON body
  /refuse?status=N&location=L  answers the handshake with status N (403 by default), a text body
                           and, when given, a Location header field
  /record?send=N           sends N bytes first if asked, then only listens

Every connection's events (handshake, messages received, pings received, the close frames
received and sent) go to the JSON-lines file given with --record: the server's own record.
With --tls-cert and --tls-key it also serves wss on a second port. When both listen it prints
one line, `READY {"ws": PORT, "wss": PORT}`, and it exits when its standard input closes.
"""

import argparse
import asyncio
import json
import os
import ssl
import sys
import threading
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import Opcode
from websockets.http11 import Request, Response

from interop_lifetime import exit_when_stdin_closes


class Recorder:
    """Appends one JSON object per line, flushed at once so that a test reads it immediately."""

    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8") if path else None
        self.next_id = 0

    def connection_id(self):
        self.next_id += 1
        return self.next_id

    def write(self, connection, event, **fields):
        if self.file is None:
            return
        line = {"connection": getattr(connection, "record_id", 0), "path": getattr(connection, "record_path", ""), "event": event}
        line.update(fields)
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()


recorder = Recorder(None)
# The keys of /drop-once whose first connection was dropped.
dropped_keys = set()


def options(request_path):
    parts = urlsplit(request_path)
    return parts.path, {key: values[-1] for key, values in parse_qs(parts.query).items()}


def close_fields(close):
    return None if close is None else {"code": int(close.code), "reason": close.reason}


def record_frames(connection, pings=True):
    """Wraps the protocol's frame handling so that pings (and pongs) received reach the record."""
    protocol = connection.protocol
    receive = protocol.recv_frame

    def recv_frame(frame):
        if pings and frame.opcode is Opcode.PING:
            recorder.write(connection, "ping", bytes=len(frame.data))
        elif frame.opcode is Opcode.PONG:
            recorder.write(connection, "pong", bytes=len(frame.data))
        receive(frame)

    protocol.recv_frame = recv_frame


def never_answer_pings(connection):
    protocol = connection.protocol
    send = protocol.send_frame

    def send_frame(frame):
        if frame.opcode is not Opcode.PONG:
            send(frame)

    protocol.send_frame = send_frame


def process_request(connection: ServerConnection, request: Request):
    connection.record_id = recorder.connection_id()
    connection.record_path = request.path
    recorder.write(connection, "handshake", headers=[[name, value] for name, value in request.headers.raw_items()])
    path, query = options(request.path)
    if path == "/refuse":
        response = connection.respond(int(query.get("status", "403")), "Refused by the interop server.\n")
        if "location" in query:
            response.headers["Location"] = query["location"]
        return response
    if path == "/unauthorized":
        body = json.dumps({"error": "unauthorized", "message": "This socket needs a token."}).encode()
        headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("WWW-Authenticate", 'Bearer realm="interop"')])
        return Response(401, "Unauthorized", headers, body)
    known = {"/echo", "/close", "/drop", "/drop-once", "/silent", "/stop-reading", "/big", "/speak-first", "/record"}
    if path not in known:
        return connection.respond(404, "No such route.\n")
    return None


async def echo(connection):
    async for message in connection:
        record_message(connection, message)
        await connection.send(message)


def record_message(connection, message):
    if isinstance(message, str):
        recorder.write(connection, "message", type="text", bytes=len(message.encode()), text=message if len(message) <= 4096 else None)
    else:
        recorder.write(connection, "message", type="binary", bytes=len(message))


async def drop(connection, after):
    remaining = after
    while remaining > 0:
        record_message(connection, await connection.recv())
        remaining -= 1
    recorder.write(connection, "drop")
    connection.transport.abort()


async def handler(connection: ServerConnection):
    path, query = options(connection.request.path)
    record_frames(connection)
    try:
        if path == "/echo":
            await echo(connection)
        elif path == "/close":
            await connection.close(int(query.get("code", "1000")), query.get("reason", ""))
        elif path == "/drop":
            await drop(connection, int(query.get("after", "0")))
        elif path == "/drop-once":
            key = query.get("key", "")
            if key in dropped_keys:
                await echo(connection)
            else:
                dropped_keys.add(key)
                await drop(connection, int(query.get("after", "0")))
        elif path == "/silent":
            never_answer_pings(connection)
            await echo(connection)
        elif path == "/stop-reading":
            connection.transport.pause_reading()
            recorder.write(connection, "stopped-reading")
            await connection.wait_closed()
        elif path == "/big":
            await connection.send(os.urandom(int(query.get("bytes", "1048576"))))
            await echo(connection)
        elif path == "/speak-first":
            await connection.send("hello from the server")
            await echo(connection)
        elif path == "/record":
            if "send" in query:
                await connection.send(bytes(int(query["send"])))
            async for message in connection:
                record_message(connection, message)
    except ConnectionClosed:
        pass
    finally:
        await connection.wait_closed()
        protocol = connection.protocol
        recorder.write(connection, "closed", received=close_fields(protocol.close_rcvd), sent=close_fields(protocol.close_sent))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--max-size", type=int, default=64 * 1024 * 1024)
    arguments = parser.parse_args()
    global recorder
    recorder = Recorder(arguments.record)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    # No keepalive pings of the server's own: the client's pings are what the tests watch.
    settings = dict(process_request=process_request, ping_interval=None, max_size=arguments.max_size)
    async with serve(handler, "127.0.0.1", 0, **settings) as plain:
        ports = {"ws": plain.sockets[0].getsockname()[1]}
        if arguments.tls_cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(arguments.tls_cert, arguments.tls_key)
            async with serve(handler, "127.0.0.1", 0, ssl=context, **settings) as secure:
                ports["wss"] = secure.sockets[0].getsockname()[1]
                print("READY " + json.dumps(ports), flush=True)
                await asyncio.Future()
        else:
            print("READY " + json.dumps(ports), flush=True)
            await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
