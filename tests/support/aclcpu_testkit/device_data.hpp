// Device data for the tests and the benchmarks alike: host encoding of every
// dtype (fp16/bf16 written here from first principles, independently of the
// code under test), tensor views, and device buffers, tensors and scalars
// with RAII.  Free of any test framework: a failed precondition goes to
// fail(), which a GoogleTest program routes to ADD_FAILURE
// (op_test_support.hpp) and anything else reports and aborts on.
//
// Values travel as double on the host: a test builds inputs as doubles,
// DeviceTensor encodes them into the tensor's dtype through its view, and
// read() decodes the view back, so references can be computed in double
// precision from exactly the values the device saw.  A complex element
// travels as a std::complex<double> (write_complex / read_complex).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace aclcpu::testkit {

using Shape = std::vector<int64_t>;
using Complex = std::complex<double>;

/// Where fail() sends its message; the default prints it and aborts.
using FailureHandler = void (*)(const std::string& message);
inline FailureHandler& failure_handler() {
    static FailureHandler handler = [](const std::string& message) {
        std::fprintf(stderr, "acl-cpu testkit: %s\n", message.c_str());
        std::abort();
    };
    return handler;
}
inline void fail(const std::string& message) { failure_handler()(message); }

/// fail()s with what and the runtime's last message unless status is 0.
inline void require_success(int status, const char* what) {
    if (status == 0) return;
    const char* message = aclGetRecentErrMsg();
    fail(std::string(what) + " failed with " + std::to_string(status) + ": " + (message != nullptr ? message : ""));
}

// ---------------------------------------------------------------------------
// fp16 / bf16 bit patterns, from first principles (frexp / ldexp in double).

/// The rounding quantum of a binary format with `mantissaBits` explicit
/// mantissa bits and minimum normal exponent `minExp`, for magnitude a > 0.
inline double quantum(double a, int mantissaBits, int minExp) {
    int e = 0;
    std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    return std::ldexp(1.0, std::max(e - 1, minExp) - mantissaBits);
}

/// a rounded to nearest even on the grid of quantum q (a / q is exact).
inline double round_to_grid(double a, double q) { return std::nearbyint(a / q) * q; }

/// A 16-bit binary floating format: a sign bit, exponentBits biased
/// exponent bits, mantissaBits explicit mantissa bits, and its quiet NaN.
struct Binary16 {
    int exponentBits;
    int mantissaBits;
    uint16_t quietNaN;

    int bias() const { return (1 << (exponentBits - 1)) - 1; }
    int max_exponent() const { return (1 << exponentBits) - 1; }
    /// The exponent of the smallest normal number.
    int min_exponent() const { return 1 - bias(); }
};
inline constexpr Binary16 kFp16{5, 10, 0x7E00};
inline constexpr Binary16 kBf16{8, 7, 0x7FC0};

inline double binary16_to_double(uint16_t bits, Binary16 format) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> format.mantissaBits) & format.max_exponent();
    const int mantissa = bits & ((1 << format.mantissaBits) - 1);
    if (exponent == format.max_exponent()) {
        return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    }
    if (exponent == 0) return sign * std::ldexp(mantissa, format.min_exponent() - format.mantissaBits);
    return sign * std::ldexp((1 << format.mantissaBits) + mantissa, exponent - format.bias() - format.mantissaBits);
}

/// Round-to-nearest-even double -> the format's bits.
inline uint16_t double_to_binary16(double value, Binary16 format) {
    if (std::isnan(value)) return format.quietNaN;
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    const double a = std::fabs(value);
    if (a == 0) return sign;
    const double r = round_to_grid(a, quantum(a, format.mantissaBits, format.min_exponent()));
    if (r >= std::ldexp(1.0, format.bias() + 1)) {
        return sign | static_cast<uint16_t>(format.max_exponent() << format.mantissaBits);
    }
    if (r < std::ldexp(1.0, format.min_exponent())) {
        return sign | static_cast<uint16_t>(std::ldexp(r, format.mantissaBits - format.min_exponent()));
    }
    int e = 0;
    std::frexp(r, &e);  // r in [2^(e-1), 2^e)
    const int mantissa = static_cast<int>(std::ldexp(r, format.mantissaBits + 1 - e)) - (1 << format.mantissaBits);
    return sign | static_cast<uint16_t>(((e - 1 + format.bias()) << format.mantissaBits) | mantissa);
}

inline double fp16_bits_to_double(uint16_t bits) { return binary16_to_double(bits, kFp16); }
inline uint16_t double_to_fp16_bits(double value) { return double_to_binary16(value, kFp16); }
inline double bf16_bits_to_double(uint16_t bits) { return binary16_to_double(bits, kBf16); }
inline uint16_t double_to_bf16_bits(double value) { return double_to_binary16(value, kBf16); }

// ---------------------------------------------------------------------------
// Host encoding of elements.

inline size_t dtype_bytes(aclDataType dtype) {
    switch (dtype) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
        case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        default: fail("dtype " + std::to_string(dtype) + " has no host encoding"); return 1;
    }
}

template <class T>
void put(uint8_t* at, T value) { std::memcpy(at, &value, sizeof value); }
template <class T>
T get(const uint8_t* at) { T value; std::memcpy(&value, at, sizeof value); return value; }

/// value, an integer of at most 64 bits, as the integer type T holds it:
/// wrapped modulo 2^bits, as a two's-complement store keeps the low bits (a
/// direct conversion of a double outside T's range is undefined behaviour).
template <class T>
T wrapped(double value) {
    if (value >= 0x1p63) return static_cast<T>(static_cast<uint64_t>(value));
    return static_cast<T>(static_cast<int64_t>(value));
}

/// Writes value as one element of dtype (integers truncate toward zero and
/// wrap into the dtype: -7 is 249 as UINT8; BOOL is value != 0).
inline void encode_at(uint8_t* at, aclDataType dtype, double value) {
    switch (dtype) {
        case ACL_FLOAT: put(at, static_cast<float>(value)); break;
        case ACL_DOUBLE: put(at, value); break;
        case ACL_FLOAT16: put(at, double_to_fp16_bits(value)); break;
        case ACL_BF16: put(at, double_to_bf16_bits(value)); break;
        case ACL_INT8: put(at, wrapped<int8_t>(value)); break;
        case ACL_INT16: put(at, wrapped<int16_t>(value)); break;
        case ACL_INT32: put(at, wrapped<int32_t>(value)); break;
        case ACL_INT64: put(at, wrapped<int64_t>(value)); break;
        case ACL_UINT8: put(at, wrapped<uint8_t>(value)); break;
        case ACL_UINT16: put(at, wrapped<uint16_t>(value)); break;
        case ACL_UINT32: put(at, wrapped<uint32_t>(value)); break;
        case ACL_UINT64: put(at, wrapped<uint64_t>(value)); break;
        case ACL_BOOL: put(at, static_cast<uint8_t>(value != 0)); break;
        // A real value as a complex element: (value, 0).
        case ACL_COMPLEX64: put(at, static_cast<float>(value)); put(at + 4, 0.0f); break;
        case ACL_COMPLEX128: put(at, value); put(at + 8, 0.0); break;
        default: fail("cannot encode dtype " + std::to_string(dtype));
    }
}

inline double decode_at(const uint8_t* at, aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT: return get<float>(at);
        case ACL_DOUBLE: return get<double>(at);
        case ACL_FLOAT16: return fp16_bits_to_double(get<uint16_t>(at));
        case ACL_BF16: return bf16_bits_to_double(get<uint16_t>(at));
        case ACL_INT8: return get<int8_t>(at);
        case ACL_INT16: return get<int16_t>(at);
        case ACL_INT32: return get<int32_t>(at);
        case ACL_INT64: return static_cast<double>(get<int64_t>(at));
        case ACL_UINT8: return get<uint8_t>(at);
        case ACL_UINT16: return get<uint16_t>(at);
        case ACL_UINT32: return get<uint32_t>(at);
        case ACL_UINT64: return static_cast<double>(get<uint64_t>(at));
        case ACL_BOOL: return get<uint8_t>(at) != 0 ? 1.0 : 0.0;
        case ACL_COMPLEX64: case ACL_COMPLEX128:
            fail("a complex element does not decode to a double: use decode_complex_at / read_complex");
            return 0;
        default: fail("cannot decode dtype " + std::to_string(dtype)); return 0;
    }
}

inline bool is_complex_dtype(aclDataType dtype) { return dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128; }

/// Writes value as one element of dtype: both parts of a COMPLEX64 /
/// COMPLEX128, the real part (encode_at) of any other dtype.
inline void encode_complex_at(uint8_t* at, aclDataType dtype, Complex value) {
    switch (dtype) {
        case ACL_COMPLEX64:
            put(at, static_cast<float>(value.real()));
            put(at + 4, static_cast<float>(value.imag()));
            break;
        case ACL_COMPLEX128:
            put(at, value.real());
            put(at + 8, value.imag());
            break;
        default: encode_at(at, dtype, value.real());
    }
}

/// One element of dtype as a complex number: (value, 0) for a real dtype.
inline Complex decode_complex_at(const uint8_t* at, aclDataType dtype) {
    switch (dtype) {
        case ACL_COMPLEX64: return {get<float>(at), get<float>(at + 4)};
        case ACL_COMPLEX128: return {get<double>(at), get<double>(at + 8)};
        default: return {decode_at(at, dtype), 0.0};
    }
}

/// value as the nearest element of dtype holds it (a real dtype keeps the real part).
inline Complex representable(Complex value, aclDataType dtype) {
    uint8_t element[16];
    encode_complex_at(element, dtype, value);
    return decode_complex_at(element, dtype);
}

/// value as the nearest element of dtype holds it (the real part of a
/// complex dtype's element).
inline double representable(double value, aclDataType dtype) {
    return representable(Complex(value, 0.0), dtype).real();
}

/// values (double or Complex) rounded to what dtype can hold (so a
/// reference sees the device's inputs).
template <class T>
std::vector<T> representable(std::vector<T> values, aclDataType dtype) {
    for (T& v : values) v = representable(v, dtype);
    return values;
}

// ---------------------------------------------------------------------------
// Shapes and views.

inline int64_t numel(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

inline Shape contiguous_strides(const Shape& shape) {
    Shape strides(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    return strides;
}

/// A tensor description: the view (shape, strides in elements, offset) over
/// a storage.  Empty strides mean row-major; an empty storage means the
/// smallest 1-D storage that holds the view.
struct TensorSpec {
    TensorSpec(Shape shape_, aclDataType dtype_, Shape strides_ = {}, int64_t offset_ = 0, Shape storage_ = {})
        : shape(std::move(shape_)), dtype(dtype_), strides(std::move(strides_)), offset(offset_),
          storage(std::move(storage_)) {}

    Shape shape;
    aclDataType dtype;
    Shape strides;
    int64_t offset;
    Shape storage;
    /// The storage format aclCreateTensor records (the pools and resampling check it).
    aclFormat format = ACL_FORMAT_ND;
};

/// The storage element index of every element of the view, row-major.
inline std::vector<int64_t> view_positions(const Shape& shape, const Shape& strides, int64_t offset) {
    std::vector<int64_t> positions;
    const int64_t n = numel(shape);
    positions.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        int64_t rest = i;
        int64_t position = offset;
        for (size_t d = shape.size(); d-- > 0;) {
            position += (rest % shape[d]) * strides[d];
            rest /= shape[d];
        }
        positions.push_back(position);
    }
    return positions;
}


/// Device memory from aclrtMalloc, freed with aclrtFree.
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
        require_success(aclrtMalloc(&data_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    }
    ~DeviceBuffer() {
        if (data_ != nullptr) aclrtFree(data_);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    void* get() const { return data_; }
    size_t size() const { return bytes_; }
    void upload(const std::vector<uint8_t>& host) {
        require_success(aclrtMemcpy(data_, bytes_, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                        "aclrtMemcpy to the device");
    }
    std::vector<uint8_t> download() const {
        std::vector<uint8_t> host(bytes_);
        require_success(aclrtMemcpy(host.data(), bytes_, data_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST),
                        "aclrtMemcpy to the host");
        return host;
    }

private:
    void* data_ = nullptr;
    size_t bytes_;
};

/// A device tensor: its own storage, filled with a sentinel byte pattern,
/// the view's elements set from host values, and the aclTensor describing it.
class DeviceTensor {
public:
    static constexpr uint8_t kSentinel = 0xA5;

    /// A tensor whose storage holds only the sentinel.
    explicit DeviceTensor(TensorSpec spec)
        : spec_(std::move(spec)),
          strides_(spec_.strides.empty() ? contiguous_strides(spec_.shape) : spec_.strides),
          storage_(spec_.storage.empty() ? minimal_storage() : spec_.storage),
          buffer_(allocation_bytes()) {
        require_success(aclrtMemset(buffer_.get(), buffer_.size(), kSentinel, buffer_.size()), "aclrtMemset");
        tensor_ = aclCreateTensor(spec_.shape.data(), spec_.shape.size(), spec_.dtype, strides_.data(), spec_.offset,
                                  spec_.format, storage_.data(), storage_.size(), buffer_.get());
        if (tensor_ == nullptr) fail("aclCreateTensor refused the tensor");
    }
    /// A tensor whose view holds values (row-major), the rest the sentinel.
    DeviceTensor(TensorSpec spec, const std::vector<double>& values) : DeviceTensor(std::move(spec)) { write(values); }
    /// An output tensor: every element of the view starts as `fill`.
    static std::unique_ptr<DeviceTensor> output(TensorSpec spec, double fill = -7.0) {
        const auto n = static_cast<size_t>(numel(spec.shape));
        return std::make_unique<DeviceTensor>(std::move(spec), std::vector<double>(n, fill));
    }
    ~DeviceTensor() { aclDestroyTensor(tensor_); }
    DeviceTensor(const DeviceTensor&) = delete;
    DeviceTensor& operator=(const DeviceTensor&) = delete;

    aclTensor* get() const { return tensor_; }
    aclDataType dtype() const { return spec_.dtype; }
    const Shape& shape() const { return spec_.shape; }
    int64_t elements() const { return numel(spec_.shape); }
    /// The bytes of the view's elements.
    size_t view_bytes() const { return static_cast<size_t>(elements()) * dtype_bytes(spec_.dtype); }

    /// Sets the view's elements (row-major) and makes the storage as it is
    /// now the reference of bytes_changed_outside_view().
    void write(const std::vector<double>& values) { write_view(values, encode_at); }
    /// write() for complex values: both parts into a COMPLEX64 / COMPLEX128
    /// view, the real parts into any other.
    void write_complex(const std::vector<Complex>& values) { write_view(values, encode_complex_at); }

    /// Fills a contiguous tensor with values evenly spread over [low, high)
    /// in a scrambled order (so branchy kernels see both sides of their
    /// branches unpredictably), the same on every run; BOOL elements are 1
    /// where the value is below low + (high - low) * trueFraction.  Made for
    /// large tensors: the pattern repeats every 64 Ki elements.
    void fill_pattern(double low, double high, double trueFraction = 0.0) {
        constexpr int64_t kPeriod = 1 << 16;
        const int64_t period = std::min(elements(), kPeriod);
        const size_t width = dtype_bytes(spec_.dtype);
        const double trueBelow = low + (high - low) * trueFraction;
        std::vector<uint8_t> pattern(static_cast<size_t>(period) * width);
        for (int64_t i = 0; i < period; ++i) {
            const double value = low + (high - low) * std::fmod(static_cast<double>(i) * 0.6180339887498949, 1.0);
            encode_at(&pattern[static_cast<size_t>(i) * width], spec_.dtype,
                      spec_.dtype == ACL_BOOL ? static_cast<double>(value < trueBelow) : value);
        }
        std::vector<uint8_t> host(buffer_.size(), kSentinel);
        const size_t begin = static_cast<size_t>(spec_.offset) * width;
        for (size_t at = 0; at < view_bytes(); at += pattern.size()) {
            std::memcpy(&host[begin + at], pattern.data(), std::min(pattern.size(), view_bytes() - at));
        }
        buffer_.upload(host);
        initial_ = std::move(host);
    }

    /// The view's elements, decoded, row-major.
    std::vector<double> read() const { return read_view(decode_at); }
    /// read() for any dtype: the view's elements as complex numbers ((value, 0) for a real dtype).
    std::vector<Complex> read_complex() const { return read_view(decode_complex_at); }
    /// The whole storage as bytes.
    std::vector<uint8_t> bytes() const { return buffer_.download(); }

    /// Storage bytes outside the view's elements that differ from their
    /// content after the last write() or fill_pattern() (0 when the kernel
    /// wrote only inside the view).
    size_t bytes_changed_outside_view() const {
        const std::vector<uint8_t> now = buffer_.download();
        std::vector<bool> inView(now.size(), false);
        const size_t width = dtype_bytes(spec_.dtype);
        for (int64_t position : positions()) {
            for (size_t b = 0; b < width; ++b) inView[static_cast<size_t>(position) * width + b] = true;
        }
        size_t changed = 0;
        for (size_t i = 0; i < now.size(); ++i) {
            const uint8_t before = initial_.empty() ? kSentinel : initial_[i];
            changed += !inView[i] && now[i] != before;
        }
        return changed;
    }

private:
    /// write() and write_complex(), T's elements encoded by encode.
    template <class T>
    void write_view(const std::vector<T>& values, void (*encode)(uint8_t*, aclDataType, T)) {
        const std::vector<int64_t> positions = this->positions();
        if (values.size() != positions.size()) fail("values do not match the view");
        require_view_in_buffer();
        initial_ = buffer_.download();
        const size_t width = dtype_bytes(spec_.dtype);
        for (size_t i = 0; i < positions.size() && i < values.size(); ++i) {
            encode(&initial_[static_cast<size_t>(positions[i]) * width], spec_.dtype, values[i]);
        }
        buffer_.upload(initial_);
    }
    /// read() and read_complex(), the view's elements decoded by decode.
    template <class T>
    std::vector<T> read_view(T (*decode)(const uint8_t*, aclDataType)) const {
        require_view_in_buffer();
        const std::vector<uint8_t> bytes = buffer_.download();
        std::vector<T> values;
        for (int64_t position : positions()) {
            values.push_back(decode(&bytes[static_cast<size_t>(position) * dtype_bytes(spec_.dtype)], spec_.dtype));
        }
        return values;
    }
    std::vector<int64_t> positions() const { return view_positions(spec_.shape, strides_, spec_.offset); }
    int64_t last_position() const {
        int64_t last = spec_.offset;
        for (size_t d = 0; d < spec_.shape.size(); ++d) {
            if (spec_.shape[d] == 0) return spec_.offset;
            last += (spec_.shape[d] - 1) * std::max<int64_t>(strides_[d], 0);
        }
        return last;
    }
    Shape minimal_storage() const { return {last_position() + 1}; }
    /// The declared storage, and no more: a view that (deliberately) reaches
    /// past it reaches past the device memory, too, as operators see it (they
    /// bound a view by the aclrtMalloc block its data lies in).
    size_t allocation_bytes() const {
        return std::max<size_t>(static_cast<size_t>(numel(storage_)) * dtype_bytes(spec_.dtype), 32);
    }
    /// Fails the test when the view's elements are not all in the buffer.
    void require_view_in_buffer() const {
        if (static_cast<size_t>(last_position() + 1) * dtype_bytes(spec_.dtype) > buffer_.size()) {
            fail("the view reaches past the tensor's storage: its elements cannot be written or read");
        }
    }

    TensorSpec spec_;
    Shape strides_;
    Shape storage_;
    DeviceBuffer buffer_;
    std::vector<uint8_t> initial_;
    aclTensor* tensor_ = nullptr;
};

/// An aclScalar holding value as dtype (FLOAT by default), destroyed with it.
class Scalar {
public:
    Scalar(double value, aclDataType dtype = ACL_FLOAT) {  // NOLINT: implicit by design
        uint8_t element[16] = {};
        encode_at(element, dtype, value);
        scalar_ = aclCreateScalar(element, dtype);
        if (scalar_ == nullptr) fail("aclCreateScalar refused the scalar");
    }
    /// A COMPLEX64 / COMPLEX128 scalar (a real dtype takes the real part).
    Scalar(Complex value, aclDataType dtype) {
        uint8_t element[16] = {};
        encode_complex_at(element, dtype, value);
        scalar_ = aclCreateScalar(element, dtype);
        if (scalar_ == nullptr) fail("aclCreateScalar refused the scalar");
    }
    ~Scalar() { aclDestroyScalar(scalar_); }
    Scalar(const Scalar&) = delete;
    Scalar& operator=(const Scalar&) = delete;
    aclScalar* get() const { return scalar_; }

private:
    aclScalar* scalar_ = nullptr;
};

/// Destroys an acl object through its destroy call (a unique_ptr deleter).
template <auto destroy>
struct Destroyer {
    template <class T>
    void operator()(T* object) const {
        destroy(object);
    }
};

/// An aclIntArray of values (empty by default), destroyed with it;
/// IntArray::none() holds no array, for a null argument.
class IntArray {
public:
    IntArray(const std::vector<int64_t>& values)  // NOLINT: implicit by design
        : array_(aclCreateIntArray(values.data(), values.size())) {}
    IntArray(std::initializer_list<int64_t> values) : IntArray(std::vector<int64_t>(values)) {}
    IntArray() : IntArray(std::vector<int64_t>{}) {}
    static IntArray none() { return IntArray(nullptr); }
    aclIntArray* get() const { return array_.get(); }

private:
    explicit IntArray(std::nullptr_t) {}

    std::unique_ptr<aclIntArray, Destroyer<aclDestroyIntArray>> array_;
};

/// An aclTensorList of tensors, destroyed with it (and the tensors with
/// the list); TensorList::none() holds no list, for a null argument.
class TensorList {
public:
    TensorList(const std::vector<const aclTensor*>& tensors)  // NOLINT: implicit by design
        : list_(aclCreateTensorList(tensors.data(), tensors.size())) {}
    TensorList(std::initializer_list<const aclTensor*> tensors)
        : TensorList(std::vector<const aclTensor*>(tensors)) {}
    static TensorList none() { return TensorList(nullptr); }
    aclTensorList* get() const { return list_.get(); }

private:
    explicit TensorList(std::nullptr_t) {}

    std::unique_ptr<aclTensorList, Destroyer<aclDestroyTensorList>> list_;
};

}  // namespace aclcpu::testkit
