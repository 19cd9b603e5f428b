// lm_file.cpp — the compact model file written and read (lm_file.hpp).
#include "scene/lm_file.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "scene/json_text.hpp"
#include "scene/model_json.hpp"
#include "scene/tokenizer_json.hpp"

namespace scene {
namespace {

using json = json_text::json;
using ordered_json = json_text::ordered_json;
using attn::Matrix;
namespace model = attn::model;

constexpr char kMagic[4] = {'A', 'L', 'M', '1'};
constexpr std::size_t kMaxHeaderBytes = 1u << 20;

bool is_int8(const Matrix& w) {
  return w.rows() >= 2 && w.cols() >= 2;
}

float row_scale(const Matrix& w, Eigen::Index r) {
  double max_abs = 0.0;
  for (Eigen::Index c = 0; c < w.cols(); ++c)
    max_abs = std::fabs(w(r, c)) > max_abs ? std::fabs(w(r, c)) : max_abs;
  return static_cast<float>(max_abs / 127.0);
}

signed char quantize(double x, float scale) {
  if (scale == 0.0f) return 0;
  double q = std::nearbyint(x / static_cast<double>(scale));
  q = q > 127 ? 127 : (q < -127 ? -127 : q);
  return static_cast<signed char>(q);
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xFF));
}
void put_f32(std::string& out, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  put_u32(out, bits);
}

// Reads little-endian values from the bytes, remembering whether it ran past the end.
struct Reader {
  std::string_view bytes;
  std::size_t at = 0;
  bool short_read = false;
  bool need(std::size_t n) {
    if (bytes.size() - at < n) short_read = true;
    return !short_read;
  }
  std::uint32_t u32() {
    if (!need(4)) return 0;
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b)
      v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
    at += 4;
    return v;
  }
  float f32() {
    const std::uint32_t bits = u32();
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  signed char i8() {
    if (!need(1)) return 0;
    return static_cast<signed char>(bytes[at++]);
  }
};

// The model's shapes from the header's sizes, with each optional weight allocated when `names` has
// it: what the header's tensor list must equal, name by name and shape by shape.
model::Model skeleton(int V, int n_ctx, int D, int L, int H, int M, const std::set<std::string>& names) {
  model::Model m;
  const int dh = D / H;
  auto opt = [&](const std::string& name, Matrix& w, int rows, int cols) {
    if (names.count(name)) w = Matrix::Zero(rows, cols);
  };
  m.W_E = Matrix::Zero(V, D);
  m.W_pos = Matrix::Zero(n_ctx, D);
  m.layers.resize(static_cast<std::size_t>(L));
  for (int l = 0; l < L; ++l) {
    model::Layer& layer = m.layers[static_cast<std::size_t>(l)];
    const std::string ln = "layers[" + std::to_string(l) + "]";
    opt(ln + ".ln1.w", layer.ln1.w, 1, D);
    opt(ln + ".ln1.b", layer.ln1.b, 1, D);
    layer.heads.resize(static_cast<std::size_t>(H));
    for (int h = 0; h < H; ++h) {
      model::Head& head = layer.heads[static_cast<std::size_t>(h)];
      const std::string hn = ln + ".heads[" + std::to_string(h) + "]";
      head.W_Q = head.W_K = head.W_V = Matrix::Zero(D, dh);
      head.W_O = Matrix::Zero(dh, D);
      opt(hn + ".b_Q", head.b_Q, 1, dh);
      opt(hn + ".b_K", head.b_K, 1, dh);
      opt(hn + ".b_V", head.b_V, 1, dh);
    }
    opt(ln + ".b_O", layer.b_O, 1, D);
    opt(ln + ".ln2.w", layer.ln2.w, 1, D);
    opt(ln + ".ln2.b", layer.ln2.b, 1, D);
    opt(ln + ".mlp.W_in", layer.mlp.W_in, D, M);
    opt(ln + ".mlp.b_in", layer.mlp.b_in, 1, M);
    opt(ln + ".mlp.W_out", layer.mlp.W_out, M, D);
    opt(ln + ".mlp.b_out", layer.mlp.b_out, 1, D);
  }
  opt("ln_final.w", m.ln_final.w, 1, D);
  opt("ln_final.b", m.ln_final.b, 1, D);
  m.W_U = Matrix::Zero(D, V);
  opt("b_U", m.b_U, 1, V);
  return m;
}

// A whole number lo … hi under `key` of the header.
bool header_size(const json& h, const char* key, int lo, int hi, int* out, std::string* error) {
  const auto it = h.find(key);
  if (it == h.end() || !it->is_number_integer() || it->get<long long>() < lo || it->get<long long>() > hi) {
    *error = std::string("model file: header.") + key + ": must be a whole number from " +
             std::to_string(lo) + " to " + std::to_string(hi);
    return false;
  }
  *out = static_cast<int>(it->get<long long>());
  return true;
}

// The header's sizes, vocabulary and tensor list → the model's skeleton; "" or the error.
std::string read_header(const json& h, LmFile* out,
                        std::vector<std::pair<std::string, std::string>>* tensors) {
  std::string e;
  if (h.value("format", std::string()) != "attention-lab-model" || !h.contains("version") ||
      h["version"] != 1)
    return "model file: header: not an attention-lab-model version 1 file";
  int V = 0, n_ctx = 0, D = 0, L = 0, H = 0, M = 0;
  if (!header_size(h, "vocab", 2, model::kMaxLmVocab, &V, &e) ||
      !header_size(h, "n_ctx", 4, model::kMaxLmContext, &n_ctx, &e) ||
      !header_size(h, "d_model", 1, model::kMaxLmModelDim, &D, &e) ||
      !header_size(h, "layers", 1, model::kMaxLmLayers, &L, &e) ||
      !header_size(h, "heads", 1, model::kMaxLmHeads, &H, &e) || !header_size(h, "d_mlp", 0, 4 * D, &M, &e))
    return e;
  if (D % H != 0) return "model file: header.heads: " + std::to_string(H) + " heads do not divide d_model";
  const auto list = h.find("tensors");
  if (list == h.end() || !list->is_array()) return "model file: header.tensors: missing";
  std::set<std::string> names;
  for (std::size_t k = 0; k < list->size(); ++k) {
    const json& t = (*list)[k];
    const std::string where = "model file: header.tensors[" + std::to_string(k) + "]";
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string() || !t.contains("dtype") ||
        !t["dtype"].is_string() || !t.contains("rows") || !t.contains("cols"))
      return where + ": must be {name, rows, cols, dtype}";
    tensors->emplace_back(t["name"].get<std::string>(), t["dtype"].get<std::string>());
    names.insert(tensors->back().first);
  }
  if (M == 0 && names.count("layers[0].mlp.W_in")) return "model file: header.d_mlp: 0 with an MLP";
  out->model = skeleton(V, n_ctx, D, L, H, M, names);
  const auto expected = model::named_weights(out->model);
  if (expected.size() != tensors->size())
    return "model file: header.tensors: " + std::to_string(tensors->size()) + " tensors, the sizes give " +
           std::to_string(expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const json& t = (*list)[k];
    const Matrix& w = *expected[k].second;
    const std::string& dtype = (*tensors)[k].second;
    if ((*tensors)[k].first != expected[k].first || t["rows"] != w.rows() || t["cols"] != w.cols() ||
        dtype != (is_int8(w) ? "int8" : "f32"))
      return "model file: header.tensors[" + std::to_string(k) + "]: expected " + expected[k].first + " " +
             std::to_string(w.rows()) + "×" + std::to_string(w.cols()) + " " + (is_int8(w) ? "int8" : "f32");
  }
  if (h.contains("tokenizer")) {
    TokenizerParse parsed = parse_tokenizer(h["tokenizer"]);
    if (!parsed.ok()) return "model file: " + parsed.error;
    attn::bpe::Tokenizer& t = *parsed.tokenizer;
    if (t.vocab_size() != V)
      return "model file: tokenizer: " + std::to_string(t.vocab_size()) + " tokens, vocab is " +
             std::to_string(V);
    for (int id = 0; id < V; ++id) out->model.vocab.push_back(attn::bpe::display_piece(t, id));
    out->tokenizer = std::move(t);
  } else {
    const auto symbols = h.find("symbols");
    if (symbols == h.end() || !symbols->is_array() || symbols->size() != static_cast<std::size_t>(V))
      return "model file: header.symbols: must be a list of " + std::to_string(V) +
             " strings (or a tokenizer)";
    for (const json& s : *symbols) {
      if (!s.is_string()) return "model file: header.symbols: must be strings";
      out->model.vocab.push_back(s.get<std::string>());
    }
  }
  if (h.contains("training")) {
    if (!h["training"].is_object()) return "model file: header.training: must be an object";
    out->training = json_text::dump(ordered_json(h["training"]), -1);
  }
  return {};
}

}  // namespace

model::Model quantized(const model::Model& m) {
  model::Model q = m;
  for (attn::Matrix* w : model::weights_of(q)) {
    if (is_int8(*w)) {
      for (Eigen::Index r = 0; r < w->rows(); ++r) {
        const float s = row_scale(*w, r);
        for (Eigen::Index c = 0; c < w->cols(); ++c)
          (*w)(r, c) = static_cast<double>(quantize((*w)(r, c), s)) * static_cast<double>(s);
      }
    } else {
      for (Eigen::Index k = 0; k < w->size(); ++k)
        w->data()[k] = static_cast<double>(static_cast<float>(w->data()[k]));
    }
  }
  return q;
}

std::string write_lm_file(const model::Model& m, const std::optional<attn::bpe::Tokenizer>& tokenizer,
                          const std::string& training) {
  ordered_json h;
  h["format"] = "attention-lab-model";
  h["version"] = 1;
  h["vocab"] = m.n_vocab();
  h["n_ctx"] = m.n_ctx();
  h["d_model"] = m.d_model();
  h["layers"] = m.n_layers();
  h["heads"] = m.n_heads();
  h["d_mlp"] = m.d_mlp();
  if (tokenizer)
    h["tokenizer"] = tokenizer_to_json(*tokenizer);
  else
    h["symbols"] = m.vocab;
  ordered_json tensors = ordered_json::array();
  std::string data;
  for (const auto& [name, w] : model::named_weights(m)) {
    ordered_json t;
    t["name"] = name;
    t["rows"] = w->rows();
    t["cols"] = w->cols();
    t["dtype"] = is_int8(*w) ? "int8" : "f32";
    tensors.push_back(std::move(t));
    if (is_int8(*w)) {
      std::vector<float> scales;
      for (Eigen::Index r = 0; r < w->rows(); ++r) put_f32(data, scales.emplace_back(row_scale(*w, r)));
      for (Eigen::Index r = 0; r < w->rows(); ++r)
        for (Eigen::Index c = 0; c < w->cols(); ++c)
          data.push_back(static_cast<char>(quantize((*w)(r, c), scales[static_cast<std::size_t>(r)])));
    } else {
      for (Eigen::Index k = 0; k < w->size(); ++k) put_f32(data, static_cast<float>(w->data()[k]));
    }
  }
  h["tensors"] = std::move(tensors);
  if (!training.empty()) h["training"] = ordered_json::parse(training);
  const std::string header = json_text::dump(h, -1);
  std::string out(kMagic, 4);
  put_u32(out, static_cast<std::uint32_t>(header.size()));
  return out + header + data;
}

bool is_lm_file(std::string_view bytes) {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), kMagic, 4) == 0;
}

LmFileParse read_lm_file(std::string_view bytes) {
  LmFileParse r;
  if (!is_lm_file(bytes)) {
    r.error = "model file: does not start with ALM1 (not a model file)";
    return r;
  }
  Reader in{bytes, 4};
  const std::uint32_t header_len = in.u32();
  if (in.short_read || header_len > kMaxHeaderBytes || !in.need(header_len)) {
    r.error = "model file: truncated or corrupt header (" + std::to_string(bytes.size()) + " bytes)";
    return r;
  }
  const json_text::Parsed parsed =
      json_text::parse_object(bytes.substr(8, header_len), kMaxHeaderBytes, "the model file's header");
  if (!parsed.error.empty()) {
    r.error = "model file: header: " + parsed.error;
    return r;
  }
  in.at = 8 + header_len;
  LmFile file;
  std::vector<std::pair<std::string, std::string>> tensors;
  if ((r.error = read_header(parsed.doc, &file, &tensors)).size()) return r;
  for (attn::Matrix* w : model::weights_of(file.model)) {
    if (is_int8(*w)) {
      std::vector<float> scales;
      for (Eigen::Index row = 0; row < w->rows(); ++row) scales.push_back(in.f32());
      for (Eigen::Index row = 0; row < w->rows(); ++row)
        for (Eigen::Index c = 0; c < w->cols(); ++c)
          (*w)(row, c) =
              static_cast<double>(in.i8()) * static_cast<double>(scales[static_cast<std::size_t>(row)]);
    } else {
      for (Eigen::Index k = 0; k < w->size(); ++k) w->data()[k] = static_cast<double>(in.f32());
    }
    if (in.short_read) break;
  }
  if (in.short_read || in.at != bytes.size()) {
    r.error = "model file: " + std::string(in.short_read ? "truncated" : "has extra bytes") + " (" +
              std::to_string(bytes.size()) + " bytes; the header's tensors need " +
              std::to_string(in.short_read ? bytes.size() + 1 : in.at) + (in.short_read ? " or more)" : ")");
    return r;
  }
  for (const auto& [name, w] : model::named_weights(file.model))
    for (Eigen::Index k = 0; k < w->size(); ++k)
      if (!std::isfinite(w->data()[k]) || std::fabs(w->data()[k]) > kMaxModelWeight) {
        r.error =
            "model file: " + name + ": entry " + std::to_string(k) + " is not a finite number of at most 1e4";
        return r;
      }
  r.file = std::move(file);
  return r;
}

namespace {
constexpr char kCheckpointMagic[4] = {'A', 'L', 'C', '1'};

void put_f64(std::string& out, double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, 8);
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<char>((bits >> (8 * b)) & 0xFF));
}
}  // namespace

std::string write_checkpoint(const model::LmTrainer& trainer, const std::string& config_json) {
  const model::LmTrainer::State s = trainer.state();
  ordered_json h;
  h["config"] = ordered_json::parse(config_json);
  h["step"] = s.step;
  h["rng"] = std::to_string(s.rng);
  const std::string header = json_text::dump(h, -1);
  std::string out(kCheckpointMagic, 4);
  put_u32(out, static_cast<std::uint32_t>(header.size()));
  out += header;
  for (const model::Model* m : {&s.model, &s.m, &s.v})
    for (const attn::Matrix* w : model::weights_of(*m))
      for (Eigen::Index k = 0; k < w->size(); ++k) put_f64(out, w->data()[k]);
  return out;
}

bool read_checkpoint(std::string_view bytes, const std::string& config_json, model::LmTrainer::State* state,
                     std::string* error) {
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kCheckpointMagic, 4) != 0) {
    *error = "resume: not a checkpoint (it starts with ALC1)";
    return false;
  }
  Reader in{bytes, 4};
  const std::uint32_t header_len = in.u32();
  if (!in.need(header_len)) {
    *error = "resume: truncated checkpoint";
    return false;
  }
  const json_text::Parsed parsed =
      json_text::parse_object(bytes.substr(8, header_len), kMaxHeaderBytes, "a checkpoint");
  if (!parsed.error.empty() || !parsed.doc.contains("config") || !parsed.doc.contains("step") ||
      !parsed.doc.contains("rng") || !parsed.doc["rng"].is_string() ||
      !parsed.doc["step"].is_number_integer()) {
    *error = "resume: corrupt checkpoint header";
    return false;
  }
  if (json_text::dump(ordered_json(parsed.doc["config"]), -1) !=
      json_text::dump(ordered_json(json::parse(config_json)), -1)) {
    *error = "resume: the checkpoint was made with other settings: " +
             json_text::dump(ordered_json(parsed.doc["config"]), -1);
    return false;
  }
  in.at = 8 + header_len;
  state->step = parsed.doc["step"].get<int>();
  state->rng = std::stoull(parsed.doc["rng"].get<std::string>());
  for (model::Model* m : {&state->model, &state->m, &state->v})
    for (attn::Matrix* w : model::weights_of(*m))
      for (Eigen::Index k = 0; k < w->size(); ++k) {
        std::uint64_t bits = 0;
        if (!in.need(8)) break;
        for (int b = 0; b < 8; ++b)
          bits |= static_cast<std::uint64_t>(static_cast<unsigned char>(in.bytes[in.at + b])) << (8 * b);
        in.at += 8;
        std::memcpy(&w->data()[k], &bits, 8);
      }
  if (in.short_read || in.at != bytes.size()) {
    *error = "resume: truncated checkpoint, or one of another model's size";
    return false;
  }
  return true;
}

LmFileParse read_any_model(std::string_view bytes) {
  if (is_lm_file(bytes)) return read_lm_file(bytes);
  LmFileParse r;
  ModelParse parsed = parse_model(bytes);
  if (!parsed.ok()) {
    r.error = parsed.error;
    return r;
  }
  r.file = LmFile{std::move(*parsed.model), std::move(parsed.tokenizer), std::move(parsed.training)};
  return r;
}

}  // namespace scene
