// report/shapes/readiness.hpp alone: the headers it includes describe every struct its output
// holds.
#include "report/shapes/readiness.hpp"
#include "tests/report/shapes/shape_check.hpp"

TEST_CASE("report/shapes/readiness.hpp writes its output and schema on its own",
          "[report][shapes]") {
    causeway::testing::check_shape_written_alone<causeway::report::ReadinessAnswer>();
}
