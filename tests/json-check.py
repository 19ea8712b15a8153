#!/usr/bin/python3
"""tests/json-check.py: memcg-softlimit's JSON documents against the schema.

  json-check.py PREFIX LABEL FILE        every document in FILE (one or more,
                                         one after the other, as stat and top
                                         print them)
  json-check.py --results PREFIX FILE    the "JSON <test> <label> <document>"
                                         lines a guest test wrote to its
                                         verdict channel (lib.sh's json_doc)

One "RESULT PASS|FAIL PREFIX/<label>" line per document source, as the
harness reads them.  The schema is docs/memcg-softlimit.schema.json
(draft 2020-12), read with Debian's python3-jsonschema.  Beyond the schema:
an escaped path (path_escaped) must decode back to bytes that are not
UTF-8, which is when the tool escapes one.
"""
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "docs", "memcg-softlimit.schema.json")


def documents(text):
    dec = json.JSONDecoder()
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            return
        doc, i = dec.raw_decode(text, i)
        yield doc


def unescape(s):
    """docs/json.md's rule, backwards: \\\\ is a backslash, \\xNN a byte."""
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1:i + 2] == "\\":
            out += b"\\"
            i += 2
        elif s[i] == "\\" and s[i + 1:i + 2] == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        else:
            out += s[i].encode()
            i += 1
    return bytes(out)


def escaped_paths(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k.endswith("_escaped"):
                yield node[k[:-len("_escaped")]]
            else:
                yield from escaped_paths(v)
    elif isinstance(node, list):
        for v in node:
            yield from escaped_paths(v)


def validator_for(schema, doc):
    """The schema as a whole, or, for a known command, its own part: the
    message then names the member that is wrong, not the whole oneOf."""
    cmd = doc.get("command") if isinstance(doc, dict) else None
    if cmd in schema["$defs"] and cmd in schema["properties"]["command"]["enum"]:
        schema = {"$ref": "#/$defs/" + cmd, "$defs": schema["$defs"]}
    return jsonschema.Draft202012Validator(schema)


def check_text(schema, text):
    """(number of documents, first problem or None)"""
    n = 0
    try:
        for doc in documents(text):
            n += 1
            errors = sorted(validator_for(schema, doc).iter_errors(doc),
                            key=lambda e: list(e.path))
            if errors:
                e = errors[0]
                where = "/".join(str(p) for p in e.absolute_path)
                return n, "document %d: at /%s: %s" % (n, where, e.message[:300])
            for p in escaped_paths(doc):
                try:
                    unescape(p).decode("utf-8")
                except UnicodeDecodeError:
                    continue
                return n, "document %d: %r is escaped but its bytes are UTF-8" % (n, p)
    except ValueError as e:
        return n, "not JSON after %d documents: %s" % (n, e)
    if n == 0:
        return 0, "no document"
    return n, None


def result(name, problem, n):
    if problem:
        print("RESULT FAIL %s %s" % (name, problem))
    else:
        print("RESULT PASS %s" % name)
    sys.stdout.flush()


def main(argv):
    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    if argv[1] == "--results":
        prefix, path = argv[2], argv[3]
        by_label = {}
        with open(path, errors="surrogateescape") as f:
            for line in f:
                line = line.rstrip("\r\n")
                if not line.startswith("JSON "):
                    continue
                _, test, label, doc = line.split(" ", 3)
                by_label.setdefault("%s/%s" % (test, label), []).append(doc)
        for label, docs in sorted(by_label.items()):
            n, problem = check_text(schema, "\n".join(docs))
            result("%s/%s" % (prefix, label), problem, n)
        return 0
    prefix, label, path = argv[1], argv[2], argv[3]
    with open(path) as f:
        n, problem = check_text(schema, f.read())
    result("%s/%s" % (prefix, label), problem, n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
