#pragma once
// A new folder under $TMPDIR (or /tmp), removed with everything in it when the object goes away:
// where the copies of ClickHouse nodes that the analysis reads are written.

#include <string>

#include "base/result.hpp"

namespace causeway::cli {

class TempFolder {
  public:
    // `purpose` names the folder in the error ("the copy of node n1").
    static Result<TempFolder> create(const std::string& purpose);
    TempFolder(TempFolder&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
    TempFolder& operator=(TempFolder&&) = delete;
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    ~TempFolder();

    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

  private:
    explicit TempFolder(std::string path) : path_(std::move(path)) {}
    std::string path_;
};

}  // namespace causeway::cli
