"""Code that uses the demo prompts.

Hover a prompt's name to read the version it pulls, F12 (Go to Definition) opens its prompt file
(demo-summarizer.prompt.yaml here) or else the remote version, and inside the quotes completion offers the
prompts and, after a colon, their tags.
"""

from langchain import hub
from langsmith import Client

client = Client()


def summarize(ticket: str, model) -> str:
    prompt = client.pull_prompt("demo-summarizer:staging")
    return (prompt | model).invoke({"ticket": ticket, "max_words": 50})


def classify(ticket: str, model) -> str:
    prompt = hub.pull("demo-classifier:production")
    return (prompt | model).invoke({"ticket": {"body": ticket}})


def answer(question: str, context: str):
    # The prompt with its model: no model argument needed.
    chain = client.pull_prompt("demo-rag-answer", include_model=True)
    return chain.invoke({"question": question, "context": context})


def canary():
    # No commit is tagged "canary" yet: the editor warns here until one is.
    return client.pull_prompt("demo-summarizer:canary")
