# sk_embed(TARGET FILE SYMBOL): compiles FILE into TARGET as a NUL-terminated
# `const char SYMBOL[]`, regenerated whenever FILE changes (data shipped inside binaries).
function(sk_embed target file symbol)
  set(out ${CMAKE_BINARY_DIR}/generated/${symbol}.c)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYM=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/SkEmbedGen.cmake
    DEPENDS ${file} ${CMAKE_SOURCE_DIR}/cmake/SkEmbedGen.cmake
    COMMENT "Embedding ${file} as ${symbol}")
  target_sources(${target} PRIVATE ${out})
endfunction()
