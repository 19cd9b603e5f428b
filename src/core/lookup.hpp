// lookup.hpp — a value per key as a table of {key, value} rows, read both ways: an enum's names (one
// table serves the name function and the parser, where a switch and a chain of ifs would spell the
// list twice), an enum's captions, the member of a struct each enum value stands for.
//
//   constexpr Row<Task, const char*> kTaskNames[] = {{Task::PreviousToken, "previous-token"}, …};
//   lookup(kTaskNames, task, "previous-token")  → the row's name, or the fallback
//   key_named(kTaskNames, "same-token")         → Task::SameToken, or nullopt
//   comma_list(kTaskNames, [](auto& r) { return r.value; })  → "previous-token, same-token, …"
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attn {

template <class K, class V>
struct Row {
  K key;
  V value;
};

// The value of the first row whose key is `key`; `fallback` when no row has it.
template <class K, class V, std::size_t N>
constexpr V lookup(const Row<K, V> (&table)[N], K key, V fallback) {
  for (const Row<K, V>& row : table)
    if (row.key == key) return row.value;
  return fallback;
}

// The key of the first row whose value (a name) is `name`; nullopt when no row has it.
template <class K, std::size_t N>
std::optional<K> key_named(const Row<K, const char*> (&table)[N], std::string_view name) {
  for (const Row<K, const char*>& row : table)
    if (name == row.value) return row.key;
  return std::nullopt;
}

// What each row of `table` is called (`name(row)`), joined by ", ": the list a usage error names.
template <class Table, class Name>
std::string comma_list(const Table& table, Name name) {
  std::string out;
  for (const auto& row : table) {
    if (!out.empty()) out += ", ";
    out += name(row);
  }
  return out;
}

}  // namespace attn
