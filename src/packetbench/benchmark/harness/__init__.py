"""The extraction harness: runs an API provider over many documents without losing work.

`runner` drives the run (asyncio, concurrency, retries, records); `inputs` turns documents
into what is sent; `prompts` renders the jinja2 prompts; `answer` judges a reply; `retry` and
`limiter` decide when to try again; `cache` makes identical requests free; `pricing` and
`budget` count dollars; `progress` shows it; `redact` keeps keys out of every file.
"""
