#pragma once
// A value or an error message that names the thing and the cause. Recoverable failures travel
// as Result; exceptions are kept for fatal start-up problems caught in main().

#include <string>
#include <utility>
#include <variant>

namespace causeway {

struct Error {
    std::string message;
};

// E is Error unless a caller must tell kinds of failure apart (tracedb::ScanRefusal).
template <class T, class E = Error>
class [[nodiscard]] Result {
  public:
    Result(T value) : state_(std::move(value)) {}
    Result(E error) : state_(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(state_); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(state_); }
    const T& value() const& { return std::get<T>(state_); }
    T&& value() && { return std::get<T>(std::move(state_)); }
    T& operator*() & { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const E& error() const { return std::get<E>(state_); }

  private:
    std::variant<T, E> state_;
};

// For operations that return nothing but can fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace causeway
