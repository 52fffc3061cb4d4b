// aclnnTriangularSolve against a double-precision reference written here:
// every A2 dtype of math/triangular_solve/op_host/op_api/
// aclnn_triangular_solve.cpp (hicann/ops-math) -- FLOAT, DOUBLE, COMPLEX64,
// COMPLEX128 --, upper/lower, transpose (the adjoint for complex),
// unitriangular, broadcast batch dims, strided and offset views, mOut (the
// broadcast A, whole), empty tensors, a singular A, every error path and
// results independent of the worker count.
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_triangular_solve.h"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;
using Complex = std::complex<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool is_complex(aclDataType dtype) { return dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128; }

struct SolveCase {
    Shape bShape;
    Shape aShape;
    bool upper;
    bool transpose;
    bool unitriangular;
};

/// X per batch: the full op(A) (A's triangle, its transpose or adjoint, a
/// unit diagonal when asked) built as a matrix, then solved by elimination
/// in the row order the triangle allows.
std::vector<Complex> solve_reference(const SolveCase& c, const std::vector<Complex>& a, const std::vector<Complex>& b,
                                     const Shape& batchShape) {
    const int64_t m = c.aShape.back();
    const int64_t n = c.bShape.back();
    int64_t batches = 1;
    for (int64_t size : batchShape) batches *= size;
    std::vector<Complex> x(static_cast<size_t>(batches * m * n));
    for (int64_t bt = 0; bt < batches; ++bt) {
        std::vector<Complex> op(static_cast<size_t>(m * m));
        for (int64_t i = 0; i < m; ++i) {
            for (int64_t k = 0; k < m; ++k) {
                const bool inTriangle = c.upper ? k >= i : k <= i;
                Complex value = inTriangle ? a[matrix_at(c.aShape, batchShape, bt, i, k)] : 0.0;
                if (i == k && c.unitriangular) value = 1.0;
                op[static_cast<size_t>(c.transpose ? k * m + i : i * m + k)] = c.transpose ? std::conj(value) : value;
            }
        }
        const bool lower = c.upper == c.transpose;
        for (int64_t j = 0; j < n; ++j) {
            for (int64_t step = 0; step < m; ++step) {
                const int64_t i = lower ? step : m - 1 - step;
                Complex rhs = b[matrix_at(c.bShape, batchShape, bt, i, j)];
                for (int64_t k = 0; k < m; ++k) {
                    if (k != i) rhs -= op[static_cast<size_t>(i * m + k)] * x[static_cast<size_t>((bt * m + k) * n + j)];
                }
                x[static_cast<size_t>((bt * m + i) * n + j)] = rhs / op[static_cast<size_t>(i * m + i)];
            }
        }
    }
    return x;
}

Shape with_matrix(Shape batch, int64_t rows, int64_t cols) {
    batch.push_back(rows);
    batch.push_back(cols);
    return batch;
}

/// Well-conditioned triangular data: a diagonal of magnitude 1-2, the rest small.
std::vector<Complex> matrix_values(const Shape& shape, uint32_t seed, bool complex) {
    const auto size = static_cast<size_t>(numel(shape));
    const std::vector<double> re = uniform(size, -0.5, 0.5, seed);
    const std::vector<double> im = uniform(size, -0.5, 0.5, seed + 100);
    const int64_t cols = shape.back();
    const int64_t rows = shape[shape.size() - 2];
    std::vector<Complex> values(size);
    for (size_t i = 0; i < size; ++i) {
        const bool diagonal = rows == cols && static_cast<int64_t>(i) % (rows * cols) / cols == static_cast<int64_t>(i) % cols;
        const double magnitude = diagonal ? 1.0 + std::fabs(re[i]) * 2 : re[i] / static_cast<double>(cols);
        values[i] = Complex(diagonal && re[i] < 0 ? -magnitude : magnitude, complex ? im[i] / static_cast<double>(cols) : 0);
    }
    return values;
}

class TriangularSolves : public AclTest {
protected:
    aclnnStatus solve(const DeviceTensor& b, const DeviceTensor& a, const SolveCase& c, DeviceTensor& x, aclTensor* m) {
        return run_aclnn(stream_, aclnnTriangularSolveGetWorkspaceSize, aclnnTriangularSolve, b.get(), a.get(),
                         c.upper, c.transpose, c.unitriangular, x.get(), m);
    }

    static void write(DeviceTensor& tensor, const std::vector<Complex>& values) {
        if (is_complex(tensor.dtype())) {
            tensor.write_complex(values);
            return;
        }
        std::vector<double> real(values.size());
        for (size_t i = 0; i < values.size(); ++i) real[i] = values[i].real();
        tensor.write(real);
    }
    static std::vector<Complex> read(const DeviceTensor& tensor) {
        if (is_complex(tensor.dtype())) return tensor.read_complex();
        const std::vector<double> real = tensor.read();
        return {real.begin(), real.end()};
    }

    void expect_solve(const SolveCase& c, aclDataType dtype, const Shape& bStrides = {}, int64_t bOffset = 0,
                      const Shape& bStorage = {}, bool withM = true) {
        SCOPED_TRACE("dtype " + std::to_string(dtype) + " upper " + std::to_string(c.upper) + " transpose " +
                     std::to_string(c.transpose) + " unit " + std::to_string(c.unitriangular));
        const Shape batch = batch_shape_of(c.aShape, c.bShape);
        const int64_t m = c.aShape.back();
        DeviceTensor a(TensorSpec(c.aShape, dtype));
        DeviceTensor b(TensorSpec(c.bShape, dtype, bStrides, bOffset, bStorage));
        write(a, matrix_values(c.aShape, 1, is_complex(dtype)));
        write(b, matrix_values(c.bShape, 2, is_complex(dtype)));
        auto x = DeviceTensor::output(TensorSpec(with_matrix(batch, m, c.bShape.back()), dtype));
        auto mOut = withM ? DeviceTensor::output(TensorSpec(with_matrix(batch, m, m), dtype)) : nullptr;
        ASSERT_EQ(solve(b, a, c, *x, mOut ? mOut->get() : nullptr), ACLNN_SUCCESS);
        const std::vector<Complex> aValues = read(a);
        const std::vector<Complex> expected = solve_reference(c, aValues, read(b), batch);
        const std::vector<Complex> actual = read(*x);
        const double tol = dtype == ACL_FLOAT || dtype == ACL_COMPLEX64 ? 1e-5 : 1e-12;
        ASSERT_EQ(actual.size(), expected.size());
        for (size_t i = 0; i < actual.size(); ++i) {
            EXPECT_LE(std::abs(actual[i] - expected[i]), tol * (1 + std::abs(expected[i]))) << "element " << i;
        }
        if (!mOut) return;
        // mOut: the broadcast A, every element (op_api ViewCopy(aBroadcast, mOut)).
        const std::vector<Complex> copied = read(*mOut);
        int64_t batches = 1;
        for (int64_t size : batch) batches *= size;
        for (int64_t bt = 0; bt < batches; ++bt) {
            for (int64_t i = 0; i < m; ++i) {
                for (int64_t k = 0; k < m; ++k) {
                    EXPECT_EQ(copied[static_cast<size_t>((bt * m + i) * m + k)],
                              aValues[matrix_at(c.aShape, batch, bt, i, k)]);
                }
            }
        }
    }
};

// aclnn_triangular_solve.cpp DTYPE_SUPPORT_LIST: FLOAT, DOUBLE, COMPLEX64,
// COMPLEX128; each triangle, with and without transpose.
TEST_F(TriangularSolves, EveryListedDtypeTriangleAndTranspose) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
        for (const bool upper : {false, true}) {
            for (const bool transpose : {false, true}) {
                expect_solve({{2, 7, 3}, {2, 7, 7}, upper, transpose, false}, dtype);
            }
        }
    }
}

// unitriangular: FLOAT only; the diagonal read as 1.
TEST_F(TriangularSolves, Unitriangular) {
    expect_solve({{5, 4}, {5, 5}, true, false, true}, ACL_FLOAT);
    expect_solve({{5, 4}, {5, 5}, false, true, true}, ACL_FLOAT);
}

// The batch dims broadcast (A's and self's), xOut and mOut of the
// broadcast shapes.
TEST_F(TriangularSolves, BroadcastBatchDims) {
    expect_solve({{3, 1, 4, 2}, {2, 4, 4}, false, false, false}, ACL_FLOAT);
    expect_solve({{4, 5}, {2, 3, 4, 4}, true, true, false}, ACL_DOUBLE);
    expect_solve({{2, 1, 6, 3}, {1, 6, 6}, false, false, false}, ACL_COMPLEX64);
}

TEST_F(TriangularSolves, StridedOffsetLargeAndWithoutMOut) {
    // self [3, 4] read transposed from an offset storage.
    expect_solve({{3, 4}, {3, 3}, false, false, false}, ACL_FLOAT, {1, 3}, 2, {20});
    expect_solve({{64, 33}, {64, 64}, true, false, false}, ACL_DOUBLE, {}, 0, {}, false);
    expect_solve({{1, 1}, {1, 1}, false, false, false}, ACL_FLOAT);
}

// A zero on A's diagonal divides by zero (the doc: "may contain NaN"); with
// unitriangular an inf on it is inf * 0 + 1 = NaN (A * (1 - eye) + eye).
TEST_F(TriangularSolves, SingularAndNonFiniteDiagonals) {
    DeviceTensor a(TensorSpec({2, 2}, ACL_FLOAT), {0, 0, 1, 1});
    DeviceTensor b(TensorSpec({2, 1}, ACL_FLOAT), {1, 1});
    auto x = DeviceTensor::output(TensorSpec({2, 1}, ACL_FLOAT));
    ASSERT_EQ(solve(b, a, {{2, 1}, {2, 2}, false, false, false}, *x, nullptr), ACLNN_SUCCESS);
    const std::vector<double> singular = x->read();
    EXPECT_EQ(singular[0], kInf);
    EXPECT_EQ(singular[1], -kInf);  // (1 - 1 * inf) / 1
    DeviceTensor infDiagonal(TensorSpec({2, 2}, ACL_FLOAT), {kInf, 0, 1, 2});
    ASSERT_EQ(solve(b, infDiagonal, {{2, 1}, {2, 2}, false, false, true}, *x, nullptr), ACLNN_SUCCESS);
    const std::vector<double> unit = x->read();
    EXPECT_TRUE(std::isnan(unit[0]));
    EXPECT_TRUE(std::isnan(unit[1]));
}

TEST_F(TriangularSolves, EmptyTensorsWriteNothing) {
    DeviceTensor a(TensorSpec({3, 3}, ACL_FLOAT), std::vector<double>(9, 1));
    DeviceTensor b(TensorSpec({3, 0}, ACL_FLOAT));
    auto x = DeviceTensor::output(TensorSpec({3, 0}, ACL_FLOAT));
    auto m = DeviceTensor::output(TensorSpec({3, 3}, ACL_FLOAT));
    ASSERT_EQ(solve(b, a, {{3, 0}, {3, 3}, true, false, true}, *x, m->get()), ACLNN_SUCCESS);
    expect_close(m->read(), std::vector<double>(9, -7), {0, 0});  // returned before mOut's copy
    DeviceTensor noBatch(TensorSpec({0, 2, 2}, ACL_DOUBLE));
    DeviceTensor bDouble(TensorSpec({2, 2}, ACL_DOUBLE), {1, 2, 3, 4});
    auto xEmpty = DeviceTensor::output(TensorSpec({0, 2, 2}, ACL_DOUBLE));
    // unitriangular with DOUBLE passes: the empty check comes first.
    EXPECT_EQ(solve(bDouble, noBatch, {{2, 2}, {0, 2, 2}, false, false, true}, *xEmpty, nullptr), ACLNN_SUCCESS);
}

TEST_F(TriangularSolves, ErrorPaths) {
    DeviceTensor a(TensorSpec({3, 3}, ACL_FLOAT), std::vector<double>(9, 1));
    DeviceTensor b(TensorSpec({3, 2}, ACL_FLOAT), std::vector<double>(6, 1));
    auto x = DeviceTensor::output(TensorSpec({3, 2}, ACL_FLOAT));
    auto m = DeviceTensor::output(TensorSpec({3, 3}, ACL_FLOAT));
    const auto phase1 = [](const aclTensor* self, const aclTensor* A, aclTensor* xOut, aclTensor* mOut,
                           bool unitriangular = false) {
        return phase1_of(aclnnTriangularSolveGetWorkspaceSize, self, A, false, false, unitriangular, xOut, mOut);
    };
    // CheckParams returns ACLNN_ERR_INNER_NULLPTR (561103) for a null self, A or xOut.
    expect_error(phase1(nullptr, a.get(), x->get(), m->get()), ACLNN_ERR_INNER_NULLPTR);
    expect_error(phase1(b.get(), nullptr, x->get(), m->get()), ACLNN_ERR_INNER_NULLPTR);
    expect_error(phase1(b.get(), a.get(), nullptr, m->get()), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(phase1(b.get(), a.get(), x->get(), nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(aclnnTriangularSolveGetWorkspaceSize(b.get(), a.get(), false, false, false, x->get(), m->get(), nullptr,
                                                   nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    DeviceTensor halves(TensorSpec({3, 3}, ACL_FLOAT16), std::vector<double>(9, 1));
    DeviceTensor doubles(TensorSpec({3, 3}, ACL_DOUBLE), std::vector<double>(9, 1));
    auto xDouble = DeviceTensor::output(TensorSpec({3, 2}, ACL_DOUBLE));
    auto mDouble = DeviceTensor::output(TensorSpec({3, 3}, ACL_DOUBLE));
    auto mHalf = DeviceTensor::output(TensorSpec({3, 3}, ACL_FLOAT16));
    expect_error_naming(phase1(b.get(), halves.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "A");
    expect_error_naming(phase1(b.get(), doubles.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "A");
    expect_error_naming(phase1(b.get(), a.get(), xDouble->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "xOut");
    expect_error_naming(phase1(b.get(), a.get(), x->get(), mHalf->get()), ACLNN_ERR_PARAM_INVALID, "mOut");
    expect_error_naming(phase1(b.get(), a.get(), x->get(), mDouble->get()), ACLNN_ERR_PARAM_INVALID, "mOut");
    DeviceTensor vector(TensorSpec({3}, ACL_FLOAT), {1, 1, 1});
    expect_error_naming(phase1(vector.get(), a.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "self");
    expect_error_naming(phase1(b.get(), vector.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "A");
    expect_error_naming(phase1(b.get(), a.get(), vector.get(), m->get()), ACLNN_ERR_PARAM_INVALID, "xOut");
    DeviceTensor nine(TensorSpec({1, 1, 1, 1, 1, 1, 1, 3, 3}, ACL_FLOAT), std::vector<double>(9, 1));
    expect_error_naming(phase1(b.get(), nine.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "A");
    DeviceTensor oblong(TensorSpec({3, 2}, ACL_FLOAT), std::vector<double>(6, 1));
    expect_error_naming(phase1(b.get(), oblong.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID,
                        "A must be batchs of square matrices, but they are 3 by 2 matrices.");
    DeviceTensor tall(TensorSpec({4, 2}, ACL_FLOAT), std::vector<double>(8, 1));
    expect_error_naming(phase1(tall.get(), a.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID,
                        "Incompatible matrix sizes for triangular_solve: each A matrix is 3 by 3");
    DeviceTensor a2(TensorSpec({2, 3, 3}, ACL_FLOAT), std::vector<double>(18, 1));
    DeviceTensor b3(TensorSpec({3, 3, 2}, ACL_FLOAT), std::vector<double>(18, 1));
    expect_error_naming(phase1(b3.get(), a2.get(), x->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "Broadcast fail");
    auto xWide = DeviceTensor::output(TensorSpec({3, 3}, ACL_FLOAT));
    expect_error_naming(phase1(b.get(), a.get(), xWide->get(), m->get()), ACLNN_ERR_PARAM_INVALID, "xOut");
    auto mWrong = DeviceTensor::output(TensorSpec({1, 3, 3}, ACL_FLOAT));
    expect_error_naming(phase1(b.get(), a.get(), x->get(), mWrong->get()), ACLNN_ERR_PARAM_INVALID, "mOut");
    expect_error_naming(phase1(b.get(), a.get(), x->get(), vector.get()), ACLNN_ERR_PARAM_INVALID, "mOut");
    DeviceTensor bDouble(TensorSpec({3, 2}, ACL_DOUBLE), std::vector<double>(6, 1));
    expect_error_naming(phase1(bDouble.get(), doubles.get(), xDouble->get(), mDouble->get(), true),
                        ACLNN_ERR_PARAM_INVALID, "unitriangular mode only support float.");
}

TEST_F(TriangularSolves, ManyBlocksBitwiseEqualForAnyWorkerCount) {
    std::vector<std::vector<double>> results;
    const Shape aShape = {16, 48, 48};
    const Shape bShape = {16, 48, 40};
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        DeviceTensor a(TensorSpec(aShape, ACL_FLOAT));
        DeviceTensor b(TensorSpec(bShape, ACL_FLOAT));
        write(a, matrix_values(aShape, 3, false));
        write(b, matrix_values(bShape, 4, false));
        auto x = DeviceTensor::output(TensorSpec(bShape, ACL_FLOAT));
        ASSERT_EQ(solve(b, a, {bShape, aShape, false, false, false}, *x, nullptr), ACLNN_SUCCESS);
        results.push_back(x->read());
    }
    for (size_t r = 1; r < results.size(); ++r) EXPECT_EQ(results[r], results[0]);
}

}  // namespace
