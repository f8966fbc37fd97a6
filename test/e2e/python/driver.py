# Drives Oriel with the MCP Python SDK's ClientSession, for test/e2e/clients-python.test.ts. Reads JSON lines on stdin:
# first how to connect, {"connect": "stdio", "command": ..., "args": [...]} (the server gets the SDK's default
# environment: no env is given) or {"connect": "http", "url": ..., "token": ...}; then tool calls
# {"id": n, "tool": name, "args": {...}}, run concurrently (a call may wait on a permission prompt while the test answers
# it). Writes one JSON line per call on stdout: {"id": n, "result": <CallToolResult>} or {"id": n, "error": "..."}.
# Ends when stdin closes.
import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def serve(session: ClientSession) -> None:
    await session.initialize()
    say({"ready": True})
    lines = anyio.wrap_file(sys.stdin)
    async with anyio.create_task_group() as group:

        async def run(request: dict) -> None:
            try:
                result = await session.call_tool(request["tool"], request.get("args") or {})
                say({"id": request["id"], "result": result.model_dump(mode="json", by_alias=True, exclude_none=True)})
            except Exception as err:  # reported to the test, which decides
                say({"id": request["id"], "error": f"{type(err).__name__}: {err}"})

        async for line in lines:
            if line.strip():
                group.start_soon(run, json.loads(line))


async def main() -> None:
    how = json.loads(sys.stdin.readline())
    if how["connect"] == "stdio":
        async with stdio_client(StdioServerParameters(command=how["command"], args=how["args"])) as (read, write):
            async with ClientSession(read, write) as session:
                await serve(session)
    else:
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {how['token']}"})
        async with client, streamable_http_client(how["url"], http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await serve(session)


anyio.run(main)
