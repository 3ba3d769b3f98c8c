#pragma once
// How busy the rest of the machine was while the scenarios recorded. A fix's gain is measured by
// recording the workload twice, at different times; a build or another test that loads the CPUs
// during one of the recordings and not the other moves the batch rate by more than the fix does
// (a slow worker given more workers ran 9% slower than before its fix while a build took the
// CPUs it was given). The verdict does not depend on it; a comparison of throughputs does.

namespace causeway::testing {

// The share of the machine's CPU time (0..1) that processes other than this one and its
// waited-for children used between construction and busy_share(): /proc/stat's busy time less
// this process's and its children's CPU time (getrusage).
class ForeignLoad {
  public:
    ForeignLoad();
    double busy_share() const;

  private:
    double busy_s_ = 0;
    double total_s_ = 0;
    double own_s_ = 0;
};

// Above this share, a throughput comparison between recordings measures the load, not the fix.
inline constexpr double kMaxForeignLoadForThroughput = 0.10;

}  // namespace causeway::testing
