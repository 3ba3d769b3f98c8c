// report/shapes/diagnosis.hpp alone: the headers it includes describe every struct its output
// holds.
#include "report/shapes/diagnosis.hpp"
#include "tests/report/shapes/shape_check.hpp"

TEST_CASE("report/shapes/diagnosis.hpp writes its output and schema on its own",
          "[report][shapes]") {
    causeway::testing::check_shape_written_alone<causeway::report::CausalChainsAnswer>();
    causeway::testing::check_shape_written_alone<causeway::analysis::Diagnosis>();
}
