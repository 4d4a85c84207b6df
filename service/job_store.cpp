#include "service/job_store.hpp"

#include <sqlite3.h>

#include <chrono>
#include <stdexcept>

#include "service/json_value.hpp"

namespace ionflow {

const char* job_state_name(JobState state) {
  switch (state) {
    case JobState::kQueued:
      return "queued";
    case JobState::kRunning:
      return "running";
    case JobState::kDone:
      return "done";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "queued";
}

std::optional<JobState> job_state_from_name(const std::string& name) {
  for (JobState s : {JobState::kQueued, JobState::kRunning, JobState::kDone, JobState::kFailed,
                     JobState::kCancelled}) {
    if (name == job_state_name(s)) return s;
  }
  return std::nullopt;
}

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// One prepared statement; binds by position (1-based), steps, finalizes on destruction.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement& bind(int i, const std::string& s) {
    sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Statement& bind(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
  }
  // True while a row is available.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("step");
  }
  std::string text(int col) const {
    auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, col)) : "";
  }
  int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }

 private:
  [[noreturn]] void fail(const char* what) {
    throw std::runtime_error("job store " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  const std::string& path_;
};

constexpr const char* kColumns =
    "id, seq, state, priority, submitted_at, started_at, finished_at, submitted_json, "
    "effective_json, progress_json, error, summary_json, result_paths, cancel_requested";

JobRecord read_record(const Statement& s) {
  JobRecord r;
  r.id = s.text(0);
  r.sequence = s.integer(1);
  r.state = job_state_from_name(s.text(2)).value_or(JobState::kQueued);
  r.priority = static_cast<int>(s.integer(3));
  r.submitted_at = s.real(4);
  r.started_at = s.real(5);
  r.finished_at = s.real(6);
  r.submitted_json = s.text(7);
  r.effective_json = s.text(8);
  r.progress_json = s.text(9);
  r.error = s.text(10);
  r.summary_json = s.text(11);
  std::string paths = s.text(12);
  if (!paths.empty()) {
    try {
      JsonValue list = parse_json(paths);  // keep the tree alive while iterating it
      for (const auto& p : list.as_array()) r.result_paths.push_back(p.as_string());
    } catch (const std::exception&) {
      // A damaged list is reported as empty rather than failing the whole read.
    }
  }
  r.cancel_requested = s.integer(13) != 0;
  return r;
}

}  // namespace

JobStore::JobStore(const std::string& path, std::vector<std::string>* requeued,
                   std::vector<std::string>* cancelled)
    : path_(path) {
  if (sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("job store " + path + ": cannot open: " + message);
  }
  sqlite3_busy_timeout(db_, 5000);
  exec("PRAGMA journal_mode=WAL");
  exec("PRAGMA synchronous=FULL");
  exec(
      "CREATE TABLE IF NOT EXISTS jobs ("
      " id TEXT PRIMARY KEY,"
      " seq INTEGER NOT NULL UNIQUE,"
      " state TEXT NOT NULL,"
      " priority INTEGER NOT NULL DEFAULT 0,"
      " submitted_at REAL NOT NULL,"
      " started_at REAL NOT NULL DEFAULT 0,"
      " finished_at REAL NOT NULL DEFAULT 0,"
      " submitted_json TEXT NOT NULL,"
      " effective_json TEXT NOT NULL,"
      " progress_json TEXT NOT NULL DEFAULT '',"
      " error TEXT NOT NULL DEFAULT '',"
      " summary_json TEXT NOT NULL DEFAULT '',"
      " result_paths TEXT NOT NULL DEFAULT '',"
      " cancel_requested INTEGER NOT NULL DEFAULT 0)");
  exec("CREATE INDEX IF NOT EXISTS jobs_queue ON jobs(state, priority DESC, seq)");
  std::lock_guard<std::mutex> lock(mutex_);
  add_origin_column();
  // A job taken from the Redis queue is not run again from here: its entry stays pending in the
  // stream and is claimed again (by this node or another) after --claim-idle-seconds.
  exec(
      "UPDATE jobs SET state = 'cancelled', error = 'the node stopped while running it; the "
      "queue runs its entry again', started_at = 0, progress_json = ''"
      " WHERE state = 'running' AND origin = 'queue'");
  // Jobs a killed process left running start again from the queue.
  {
    Statement s(db_, "SELECT id, cancel_requested FROM jobs WHERE state = 'running' ORDER BY seq",
                path_);
    while (s.step()) {
      // A job whose cancel was requested ends cancelled below, it is not requeued.
      std::vector<std::string>* list = s.integer(1) == 0 ? requeued : cancelled;
      if (list != nullptr) list->push_back(s.text(0));
    }
  }
  exec(
      "UPDATE jobs SET state = CASE cancel_requested WHEN 0 THEN 'queued' ELSE 'cancelled' END,"
      " started_at = 0, progress_json = '' WHERE state = 'running'");
}

JobStore::~JobStore() {
  sqlite3_close(db_);
}

void JobStore::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("job store " + path_ + ": " + message);
  }
}

void JobStore::add_origin_column() {
  Statement columns(db_, "SELECT COUNT(*) FROM pragma_table_info('jobs') WHERE name = 'origin'",
                    path_);
  columns.step();
  if (columns.integer(0) == 0) exec("ALTER TABLE jobs ADD COLUMN origin TEXT NOT NULL DEFAULT ''");
}

int64_t JobStore::next_sequence() const {
  Statement next(db_, "SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs", path_);
  next.step();
  return next.integer(0);
}

void JobStore::begin_external(JobRecord& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  r.sequence = next_sequence();
  r.started_at = now_seconds();
  if (r.submitted_at <= 0) r.submitted_at = r.started_at;
  r.state = JobState::kRunning;
  Statement s(db_,
              "INSERT INTO jobs (id, seq, state, priority, submitted_at, started_at,"
              " submitted_json, effective_json, origin) VALUES (?, ?, 'running', ?, ?, ?, ?, ?,"
              " 'queue') ON CONFLICT(id) DO UPDATE SET state = 'running', seq = excluded.seq,"
              " started_at = excluded.started_at, finished_at = 0, progress_json = '', error = '',"
              " summary_json = '', result_paths = '', cancel_requested = 0,"
              " submitted_json = excluded.submitted_json, effective_json = excluded.effective_json",
              path_);
  s.bind(1, r.id).bind(2, r.sequence).bind(3, int64_t{r.priority}).bind(4, r.submitted_at);
  s.bind(5, r.started_at).bind(6, r.submitted_json).bind(7, r.effective_json);
  s.step();
  changes_.fetch_add(1, std::memory_order_release);
}

void JobStore::insert(JobRecord& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  r.sequence = next_sequence();
  r.submitted_at = now_seconds();
  r.state = JobState::kQueued;
  Statement s(db_,
              "INSERT INTO jobs (id, seq, state, priority, submitted_at, submitted_json,"
              " effective_json) VALUES (?, ?, 'queued', ?, ?, ?, ?)",
              path_);
  s.bind(1, r.id).bind(2, r.sequence).bind(3, int64_t{r.priority}).bind(4, r.submitted_at);
  s.bind(5, r.submitted_json).bind(6, r.effective_json);
  s.step();
  changes_.fetch_add(1, std::memory_order_release);
}

std::optional<JobRecord> JobStore::get(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, (std::string("SELECT ") + kColumns + " FROM jobs WHERE id = ?").c_str(), path_);
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_record(s);
}

std::vector<JobRecord> JobStore::list(std::optional<JobState> state, int limit) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string sql = std::string("SELECT ") + kColumns + " FROM jobs" +
                    (state ? " WHERE state = ?" : "") + " ORDER BY seq DESC LIMIT ?";
  Statement s(db_, sql.c_str(), path_);
  int i = 1;
  if (state) s.bind(i++, std::string(job_state_name(*state)));
  s.bind(i, int64_t{limit});
  std::vector<JobRecord> out;
  while (s.step()) out.push_back(read_record(s));
  return out;
}

std::map<JobState, int64_t> JobStore::count_by_state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<JobState, int64_t> out;
  for (JobState st : {JobState::kQueued, JobState::kRunning, JobState::kDone, JobState::kFailed,
                      JobState::kCancelled}) {
    out[st] = 0;
  }
  Statement s(db_, "SELECT state, COUNT(*) FROM jobs GROUP BY state", path_);
  while (s.step()) {
    if (auto st = job_state_from_name(s.text(0))) out[*st] = s.integer(1);
  }
  return out;
}

std::optional<JobRecord> JobStore::claim_next() {
  std::lock_guard<std::mutex> lock(mutex_);
  exec("BEGIN IMMEDIATE");
  try {
    std::optional<JobRecord> record;
    {
      Statement s(db_,
                  (std::string("SELECT ") + kColumns +
                   " FROM jobs WHERE state = 'queued' ORDER BY priority DESC, seq LIMIT 1")
                      .c_str(),
                  path_);
      if (s.step()) record = read_record(s);
    }
    if (record) {
      record->state = JobState::kRunning;
      record->started_at = now_seconds();
      Statement u(db_, "UPDATE jobs SET state = 'running', started_at = ? WHERE id = ?", path_);
      u.bind(1, record->started_at).bind(2, record->id);
      u.step();
    }
    exec("COMMIT");
    if (record) changes_.fetch_add(1, std::memory_order_release);
    return record;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void JobStore::set_progress(const std::string& id, const std::string& progress_json) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "UPDATE jobs SET progress_json = ? WHERE id = ? AND state = 'running'", path_);
  s.bind(1, progress_json).bind(2, id);
  s.step();
}

void JobStore::finish_done(const std::string& id, const std::string& summary_json,
                           const std::vector<std::string>& result_paths) {
  JsonValue paths = JsonValue::array();
  for (const auto& p : result_paths) paths.push_back(p);
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_,
              "UPDATE jobs SET state = 'done', finished_at = ?, summary_json = ?, result_paths = ?,"
              " error = '' WHERE id = ?",
              path_);
  s.bind(1, now_seconds()).bind(2, summary_json).bind(3, to_json(paths)).bind(4, id);
  s.step();
  changes_.fetch_add(1, std::memory_order_release);
}

void JobStore::finish_failed(const std::string& id, const std::string& error) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "UPDATE jobs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?",
              path_);
  s.bind(1, now_seconds()).bind(2, error).bind(3, id);
  s.step();
  changes_.fetch_add(1, std::memory_order_release);
}

void JobStore::finish_cancelled(const std::string& id, const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_, "UPDATE jobs SET state = 'cancelled', finished_at = ?, error = ? WHERE id = ?",
              path_);
  s.bind(1, now_seconds()).bind(2, reason).bind(3, id);
  s.step();
  changes_.fetch_add(1, std::memory_order_release);
}

void JobStore::requeue(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement s(db_,
              "UPDATE jobs SET state = 'queued', started_at = 0, progress_json = ''"
              " WHERE id = ? AND state = 'running'",
              path_);
  s.bind(1, id);
  s.step();
  if (sqlite3_changes(db_) > 0) changes_.fetch_add(1, std::memory_order_release);
}

std::optional<JobState> JobStore::request_cancel(const std::string& id, const std::string& reason,
                                                 bool* cancelled_now) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_now != nullptr) *cancelled_now = false;
  exec("BEGIN IMMEDIATE");
  try {
    std::optional<JobState> state;
    bool cancelled_now_here = false;
    {
      Statement s(db_, "SELECT state FROM jobs WHERE id = ?", path_);
      s.bind(1, id);
      if (s.step()) state = job_state_from_name(s.text(0));
    }
    if (state == JobState::kQueued) {
      Statement u(db_,
                  "UPDATE jobs SET state = 'cancelled', finished_at = ?, error = ? WHERE id = ?",
                  path_);
      u.bind(1, now_seconds()).bind(2, reason).bind(3, id);
      u.step();
      state = JobState::kCancelled;
      cancelled_now_here = true;
      if (cancelled_now != nullptr) *cancelled_now = true;
    } else if (state == JobState::kRunning) {
      Statement u(db_, "UPDATE jobs SET cancel_requested = 1, error = ? WHERE id = ?", path_);
      u.bind(1, reason).bind(2, id);
      u.step();
    }
    exec("COMMIT");
    if (cancelled_now_here) changes_.fetch_add(1, std::memory_order_release);
    return state;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace ionflow
