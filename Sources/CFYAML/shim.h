#ifndef UNDERSTUDY_CFYAML_SHIM_H
#define UNDERSTUDY_CFYAML_SHIM_H

// libfyaml (Debian's libfyaml-dev 0.7.12, Homebrew's libfyaml 0.9.3): its event parser, whose API is the same in
// both, reads OpenAPI documents written in YAML. It passes all of yaml-test-suite; libyaml 0.2.5 passed 330 of 402
// cases there (the choice and its evidence: UnderstudyYAML/YAMLReader.swift).
#include <libfyaml.h>

#endif
