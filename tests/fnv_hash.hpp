// fnv_hash.hpp — FNV-1a over the bytes of doubles: one number that changes when any bit of a training
// run does (the doctests and tests/bench/circuits_bench.cpp compare it natively and in wasm).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/model.hpp"

// h folded with the 8 bytes of each of `count` doubles (start with h = 0, or a previous hash).
inline std::uint64_t fnv(const double* values, Eigen::Index count, std::uint64_t h) {
  for (Eigen::Index k = 0; k < count; ++k) {
    unsigned char bytes[8];
    std::memcpy(bytes, &values[k], 8);
    for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

// Every weight of a model, in weights_of's order.
inline std::uint64_t fnv_model(const attn::model::Model& m, std::uint64_t h) {
  for (const attn::Matrix* w : attn::model::weights_of(m)) h = fnv(w->data(), w->size(), h);
  return h;
}
