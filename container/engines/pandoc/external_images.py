"""The native pandoc's image guard (container/engines/pandoc.ts): reads pandoc's JSON AST (argv[1]) and writes it
(argv[2]) with every image that is not a data: URL replaced by its alt text (a Span of the image's attributes and
alt inlines), so the writer has nothing to fetch or embed (a file:///etc/... or loopback URL). Pandoc nodes are
{"t", "c"} objects; an Image's "c" is [attr, alt inlines, [url, title]]. Run as a tool (the call's memory limit), so
the AST is held by this process, not by the native server. Iterative, so a deeply nested document cannot overflow
Python's stack."""
import json
import sys


def is_external_image(node):
    if node.get("t") != "Image" or not isinstance(node.get("c"), list) or len(node["c"]) < 3:
        return False
    target = node["c"][2]
    url = str(target[0]) if isinstance(target, list) and target else ""
    return not url.lower().startswith("data:")


def strip(root):
    stack = [root]
    while stack:
        node = stack.pop()
        children = node if isinstance(node, list) else node.values() if isinstance(node, dict) else ()
        for child in children:
            if isinstance(child, dict) and is_external_image(child):
                attr, alt = child["c"][0], child["c"][1]
                child.clear()
                child.update({"t": "Span", "c": [attr, alt]})
            if isinstance(child, (list, dict)):
                stack.append(child)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        ast = json.load(f)
    strip(ast)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(ast, f, ensure_ascii=False, separators=(",", ":"))


main()
