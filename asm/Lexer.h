// Internal: the character classes of MLIR's lexical grammar, shared by the
// parser files (asm/Parser.cpp, ir/*Parser.cpp, asm/Lexer.cpp). The lexing
// members of Parser (whitespace, keywords, integers, strings, balanced
// brackets) are in asm/Lexer.cpp; see ir/ParserImpl.h for why there is no
// token stream.
//
//   isIdStart('a') && isIdChar('.')        // `stablehlo.add` is one bare id
//   isSuffixIdChar('0')                    // `%0`, `@f.1` are names
//   describeChar('\0') == "end of input"   // for "expected ')', found ..."
#pragma once

#include <string>

namespace autopart {

inline bool isIdStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool isIdChar(char c) {
  return isIdStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-';
}
inline bool isSuffixIdChar(char c) {  // %names and @names
  return isIdStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-';
}

// A character for an error message: quoted, or "end of input" for '\0'.
std::string describeChar(char c);

}  // namespace autopart
