# SK_SANITIZE=address;undefined (or thread) adds the sanitizer flags to every target.
if(SK_SANITIZE)
  string(REPLACE ";" "," _sk_san "${SK_SANITIZE}")
  add_compile_options(-fsanitize=${_sk_san} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${_sk_san})
endif()
