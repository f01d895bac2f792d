"""utils.dataset.token_stream: a split as one id tensor, items framed by the boundary token."""

import torch

from utils.dataset import Dataset, token_stream
from utils.tokenizers import CharTokenizer


def test_items_are_joined_by_the_boundary():
    tokenizer = CharTokenizer.from_text("emaoliv", boundary=".")
    items = [torch.tensor(tokenizer.encode(name)) for name in ("emma", "ava")]
    data = Dataset("names", "items", tokenizer, items, items[:1], items[1:])
    assert tokenizer.decode(token_stream(data, "train").tolist()) == ".emma.ava."
    assert tokenizer.decode(token_stream(data, "test").tolist()) == ".ava."


def test_text_is_returned_unchanged():
    tokenizer = CharTokenizer.from_text("abc")
    text = torch.tensor(tokenizer.encode("abcab"))
    data = Dataset("t", "text", tokenizer, text, text, text)
    assert token_stream(data, "val") is text
