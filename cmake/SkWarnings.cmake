# The one warning list (docs/style.md, rule 23), applied per target.
function(sk_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes -Wvla
    -Wno-unused-parameter)
  if(SK_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
