# cmake -DIN=file -DOUT=file.inc -P EmbedText.cmake
# Writes IN as a C string literal (one literal per line) to OUT.
file(READ "${IN}" _text)
string(REPLACE "\\" "\\\\" _text "${_text}")
string(REPLACE "\"" "\\\"" _text "${_text}")
string(REPLACE "\n" "\\n\"\n\"" _text "${_text}")
file(WRITE "${OUT}.tmp" "\"${_text}\"\n")
file(RENAME "${OUT}.tmp" "${OUT}")
