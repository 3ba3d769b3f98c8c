// report/shapes/comparison.hpp alone: the headers it includes describe every struct its output
// holds.
#include "report/shapes/comparison.hpp"
#include "tests/report/shapes/shape_check.hpp"

TEST_CASE("report/shapes/comparison.hpp writes its output and schema on its own",
          "[report][shapes]") {
    causeway::testing::check_shape_written_alone<causeway::report::ComparisonAnswer>();
    causeway::testing::check_shape_written_alone<causeway::analysis::TraceComparison>();
}
