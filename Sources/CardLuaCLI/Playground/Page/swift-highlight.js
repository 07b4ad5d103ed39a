// The exported Swift in colour, for `cardlua play`'s code view: a small tokenizer of
// Swift's surface (comments, nested block comments, string literals with their escapes,
// multi-line strings, numbers, keywords, attributes, CamelCase names as types) and a
// renderer that puts each line in a span of its own (play.css numbers the lines). The
// text is never parsed as HTML: every piece goes in as a text node, so the view's
// textContent is the file exactly.
var cardluaSwift = (function () {
  "use strict";

  var KEYWORDS = {};
  ("associatedtype as async await break case catch class continue convenience default defer deinit didSet do " +
   "dynamic else enum extension fallthrough false fileprivate final for func get guard if import in indirect " +
   "infix init inout internal is lazy let mutating nil nonisolated nonmutating open operator optional override " +
   "postfix precedencegroup prefix private protocol public repeat required rethrows return self Self set some " +
   "static struct subscript super switch throw throws true try typealias unowned var weak where while willSet any"
  ).split(" ").forEach(function (k) { KEYWORDS[k] = true; });

  var NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
  var NUMBER = /0x[0-9A-Fa-f_]+(\.[0-9A-Fa-f_]+)?([pP][+-]?[0-9]+)?|0b[01_]+|0o[0-7_]+|[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9][0-9_]*)?/y;

  function at(regex, text, i) {
    regex.lastIndex = i;
    var m = regex.exec(text);
    return m ? m[0] : "";
  }

  // The end of the string literal starting at i (just past its closing quote, or the end
  // of the line for an unclosed one-line literal).
  function stringEnd(text, i) {
    var multi = text.substr(i, 3) === '"""', j = i + (multi ? 3 : 1);
    while (j < text.length) {
      var c = text.charAt(j);
      if (c === "\\") { j += 2; continue; }
      if (multi ? text.substr(j, 3) === '"""' : c === '"') { return j + (multi ? 3 : 1); }
      if (!multi && c === "\n") { return j; }
      j++;
    }
    return text.length;
  }

  // The end of the block comment starting at i (Swift's nest).
  function commentEnd(text, i) {
    var depth = 0, j = i;
    while (j < text.length) {
      if (text.substr(j, 2) === "/*") { depth++; j += 2; continue; }
      if (text.substr(j, 2) === "*/") { depth--; j += 2; if (!depth) { return j; } continue; }
      j++;
    }
    return text.length;
  }

  // [[class or "", text], …] covering `text` exactly, in order.
  function tokens(text) {
    var out = [], i = 0, n = text.length;
    function push(kind, piece) {
      var last = out[out.length - 1];
      if (!kind && last && !last[0]) { last[1] += piece; } else { out.push([kind, piece]); }
    }
    while (i < n) {
      var c = text.charAt(i), d = text.charAt(i + 1), end, word;
      if (c === "/" && d === "/") {
        end = text.indexOf("\n", i);
        end = end < 0 ? n : end;
        push("com", text.slice(i, end));
      } else if (c === "/" && d === "*") {
        end = commentEnd(text, i);
        push("com", text.slice(i, end));
      } else if (c === '"') {
        end = stringEnd(text, i);
        push("str", text.slice(i, end));
      } else if ((c === "@" || c === "#") && (word = at(NAME, text, i + 1))) {
        end = i + 1 + word.length;
        push(c === "@" ? "attr" : "kw", text.slice(i, end));
      } else if (c === "`" && (word = at(NAME, text, i + 1)) && text.charAt(i + 1 + word.length) === "`") {
        end = i + word.length + 2;   // `default`: a name, not the keyword
        push("", text.slice(i, end));
      } else if ((word = at(NAME, text, i))) {
        end = i + word.length;
        // A member named like a keyword (`.default`, `.init` aside) is a name.
        var member = text.charAt(i - 1) === "." && word !== "init" && word !== "self";
        // A capitalised name with a small letter is a type (CGFloat, UIKit), not a constant (ITEM_WIDTH).
        push(!member && KEYWORDS[word] ? "kw" : /^[A-Z][A-Za-z0-9]*[a-z]/.test(word) ? "type" : "", word);
      } else if (/[0-9]/.test(c) && (word = at(NUMBER, text, i))) {
        end = i + word.length;
        push("num", word);
      } else {
        end = i + 1;
        push("", c);
      }
      i = end;
    }
    return out;
  }

  // Fills `box` with `text` highlighted: a span.ln per line, the newlines between them
  // as text, tokens as spans of their class.
  function render(box, text) {
    var fragment = document.createDocumentFragment(), line = null;
    function newLine() { line = document.createElement("span"); line.className = "ln"; }
    newLine();
    tokens(text).forEach(function (t) {
      t[1].split("\n").forEach(function (piece, k) {
        if (k) {
          fragment.appendChild(line);
          fragment.appendChild(document.createTextNode("\n"));
          newLine();
        }
        if (!piece) { return; }
        if (t[0]) {
          var span = document.createElement("span");
          span.className = t[0];
          span.textContent = piece;
          line.appendChild(span);
        } else {
          line.appendChild(document.createTextNode(piece));
        }
      });
    });
    if (line.firstChild) { fragment.appendChild(line); }   // no numbered empty line after the last newline
    box.textContent = "";
    box.appendChild(fragment);
  }

  return { tokens: tokens, render: render };
})();
