// acl-cpu: Dims, the shape/stride container of the aclnn objects.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>

namespace aclcpu {

/// A list of int64 (dims, strides) stored inline up to kInline entries, so
/// that describing the usual tensor costs no heap allocation; longer lists
/// (a rank-9 view that an operator will refuse) spill to the heap.
class Dims {
public:
    static constexpr size_t kInline = 8;

    Dims() noexcept = default;
    Dims(const int64_t* values, size_t count) { assign(values, count); }
    Dims(std::initializer_list<int64_t> values) { assign(values.begin(), values.size()); }
    Dims(const Dims& other) { assign(other.data(), other.size()); }
    Dims& operator=(const Dims& other) {
        if (this != &other) assign(other.data(), other.size());
        return *this;
    }

    void assign(const int64_t* values, size_t count) {
        resize(count);
        if (count != 0) std::copy(values, values + count, data());
    }
    /// Resizes to count entries; new entries are zero.
    void resize(size_t count) {
        if (count > kInline) {
            auto heap = std::make_unique<int64_t[]>(count);
            std::copy(data(), data() + std::min(size_, count), heap.get());
            heap_ = std::move(heap);
        } else if (heap_) {
            std::copy(heap_.get(), heap_.get() + std::min(size_, count), inline_);
            heap_.reset();
        }
        for (size_t i = size_; i < count; ++i) data()[i] = 0;
        size_ = count;
    }

    void push_back(int64_t value) {
        resize(size_ + 1);
        data()[size_ - 1] = value;
    }

    size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    int64_t* data() noexcept { return heap_ ? heap_.get() : inline_; }
    const int64_t* data() const noexcept { return heap_ ? heap_.get() : inline_; }
    int64_t& operator[](size_t i) noexcept { return data()[i]; }
    int64_t operator[](size_t i) const noexcept { return data()[i]; }
    int64_t* begin() noexcept { return data(); }
    int64_t* end() noexcept { return data() + size_; }
    const int64_t* begin() const noexcept { return data(); }
    const int64_t* end() const noexcept { return data() + size_; }

    friend bool operator==(const Dims& a, const Dims& b) noexcept {
        return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
    }
    friend bool operator!=(const Dims& a, const Dims& b) noexcept { return !(a == b); }

private:
    size_t size_ = 0;
    int64_t inline_[kInline] = {};
    std::unique_ptr<int64_t[]> heap_;
};

}  // namespace aclcpu
