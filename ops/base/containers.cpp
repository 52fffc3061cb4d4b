// acl-cpu: the host arrays (aclIntArray, aclFloatArray, aclBoolArray) and the
// owning lists (aclTensorList, aclScalarList).
//
// As CANN's aclArray, a null value pointer makes an empty container whatever
// the size says.
#include <memory>
#include <new>
#include <vector>

#include "aclcpu/bool_array.hpp"
#include "aclcpu/nnopbase.hpp"
#include "arguments.hpp"

namespace {

template <typename T>
std::vector<T> copy_of(const T* values, uint64_t size) {
    return values == nullptr ? std::vector<T>() : std::vector<T>(values, values + size);
}

struct DestroyTensor {
    void operator()(const aclTensor* tensor) const noexcept { aclDestroyTensor(tensor); }
};
struct DestroyScalar {
    void operator()(const aclScalar* scalar) const noexcept { aclDestroyScalar(scalar); }
};

/// A list owning its elements: destroying the list destroys them.
template <typename T, typename Destroy>
struct OwningList {
    std::vector<std::unique_ptr<const T, Destroy>> items;

    OwningList(const T* const* values, uint64_t size) {
        if (values == nullptr) return;
        items.reserve(size);
        for (uint64_t i = 0; i < size; ++i) items.emplace_back(values[i]);
    }
};

/// Allocates an object from the arguments of its aclCreate* function;
/// nullptr (reported) when the host is out of memory.
template <typename Object, typename... Args>
Object* create(const char* api, const Args&... args) noexcept {
    try {
        return new Object{args...};
    } catch (const std::bad_alloc&) {
        aclcpu::report_error(ACLNN_ERR_INNER, aclcpu::kAclnnInnerTag, "%s error: out of host memory.", api);
        return nullptr;
    }
}

/// The aclDestroy* of every container: nullptr is fine, lists destroy their
/// elements in their destructors.
template <typename Container>
aclnnStatus destroy(const Container* container) noexcept {
    delete container;
    return ACLNN_SUCCESS;
}

template <typename Container>
aclnnStatus size_of(const char* api, const Container* container, uint64_t* size) {
    if (aclcpu::null_argument(api, container == nullptr || size == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    *size = container->size();
    return ACLNN_SUCCESS;
}

}  // namespace

struct aclIntArray {
    std::vector<int64_t> values;
    aclIntArray(const int64_t* data, uint64_t size) : values(copy_of(data, size)) {}
    size_t size() const noexcept { return values.size(); }
};

const std::vector<int64_t>& aclcpu::values_of(const aclIntArray* array) noexcept { return array->values; }

struct aclFloatArray {
    std::vector<float> values;
    aclFloatArray(const float* data, uint64_t size) : values(copy_of(data, size)) {}
    size_t size() const noexcept { return values.size(); }
};

struct aclBoolArray {
    std::vector<bool> values;
    aclBoolArray(const bool* data, uint64_t size) : values(copy_of(data, size)) {}
    size_t size() const noexcept { return values.size(); }
};

const std::vector<bool>& aclcpu::values_of(const aclBoolArray* array) noexcept { return array->values; }

struct aclTensorList : OwningList<aclTensor, DestroyTensor> {
    using OwningList::OwningList;
    size_t size() const noexcept { return items.size(); }
};

struct aclScalarList : OwningList<aclScalar, DestroyScalar> {
    using OwningList::OwningList;
    size_t size() const noexcept { return items.size(); }
};

std::vector<const aclTensor*> aclcpu::tensors_of(const aclTensorList* list) {
    std::vector<const aclTensor*> tensors;
    tensors.reserve(list->items.size());
    for (const auto& item : list->items) tensors.push_back(item.get());
    return tensors;
}

extern "C" {

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    return create<aclIntArray>("aclCreateIntArray", value, size);
}
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
    return create<aclFloatArray>("aclCreateFloatArray", value, size);
}
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
    return create<aclBoolArray>("aclCreateBoolArray", value, size);
}
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
    return create<aclTensorList>("aclCreateTensorList", value, size);
}
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
    return create<aclScalarList>("aclCreateScalarList", value, size);
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) { return destroy(array); }
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) { return destroy(array); }
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) { return destroy(array); }
aclnnStatus aclDestroyTensorList(const aclTensorList* array) { return destroy(array); }
aclnnStatus aclDestroyScalarList(const aclScalarList* array) { return destroy(array); }

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
    return size_of("aclGetIntArraySize", array, size);
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
    return size_of("aclGetFloatArraySize", array, size);
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
    return size_of("aclGetBoolArraySize", array, size);
}
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
    return size_of("aclGetTensorListSize", tensorList, size);
}
aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
    return size_of("aclGetScalarListSize", scalarList, size);
}

}  // extern "C"
