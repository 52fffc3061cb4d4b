#!/usr/bin/env python3
"""ops/aclnn_api.py: what each key of a declaration list makes of an aclnnop header, and the lists it
refuses.  The headers it writes are checked whole elsewhere (public_headers_are_c99_and_cxx11_clean,
install_tree_links_cxx11_program, and the operators' own definitions, which must match them)."""
import pathlib
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "ops"))
import aclnn_api  # noqa: E402

PHASE2 = "(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);"


def declared(list_text):
    """{file: the header's declarations, each on one line} of a list."""
    with tempfile.TemporaryDirectory() as folder:
        source = pathlib.Path(folder) / "aclnn_api.toml"
        source.write_text(textwrap.dedent(list_text))
        return {header.file: [" ".join(line.split()) for line in
                              aclnn_api.render(header).replace(",\n", ", ").replace("(\n", "(").splitlines()
                              if line.startswith("ACLNN_API") or line.startswith("/* ") and "acl-cpu" not in line]
                for header in aclnn_api.load(source)}


class Declarations(unittest.TestCase):
    def test_an_entry_is_its_two_phases_with_the_trailing_parameters(self):
        self.assertEqual(declared('''
            [[header]]
            file = "aclnn_x.h"
            doc = "X."
            [[header.api]]
            name = "aclnnX"
            params = ["const aclTensor* self", "aclTensor* out"]
            comment = "The X."
            '''), {"aclnn_x.h": [
            "/* The X. */",
            "ACLNN_API aclnnStatus aclnnXGetWorkspaceSize(const aclTensor* self, aclTensor* out, "
            "uint64_t* workspaceSize, aclOpExecutor** executor);",
            "ACLNN_API aclnnStatus aclnnX" + PHASE2]})

    def test_an_entry_says_where_cann_declares_otherwise(self):
        self.assertEqual(declared('''
            [[header]]
            file = "aclnn_x.h"
            doc = "X."
            order = ["aclnnXGetWorkspaceSize", "aclnnYGetWorkspaceSize", "aclnnX", "aclnnY", "aclnnZ"]
            [[header.api]]
            name = "aclnnX"
            params = ["aclTensor* selfRef"]
            const_stream = true
            [[header.api]]
            name = "aclnnY"
            params = ["aclTensor* selfRef"]
            phase1_tail = ["uint64_t* workspaceSize", "aclOpExecutor** opExecutor"]
            phase2 = ["void* workspace", "const uint64_t workspaceSize", "aclOpExecutor* opExecutor", "aclrtStream stream"]
            [[header.api]]
            name = "aclnnZ"
            params = ["const aclIntArray* shape", "uint64_t* size"]
            single_phase = true
            ''')["aclnn_x.h"], [
            "ACLNN_API aclnnStatus aclnnXGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, "
            "aclOpExecutor** executor);",
            "ACLNN_API aclnnStatus aclnnYGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize, "
            "aclOpExecutor** opExecutor);",
            "ACLNN_API aclnnStatus aclnnX" + PHASE2.replace("aclrtStream", "const aclrtStream"),
            "ACLNN_API aclnnStatus aclnnY(void* workspace, const uint64_t workspaceSize, aclOpExecutor* opExecutor, "
            "aclrtStream stream);",
            "ACLNN_API aclnnStatus aclnnZ(const aclIntArray* shape, uint64_t* size);"])

    def test_a_list_that_cannot_be_meant_is_refused(self):
        header = '[[header]]\nfile = "aclnn_x.h"\ndoc = "X."\n'
        entry = '[[header.api]]\nname = "aclnnX"\nparams = ["aclTensor* out"]\n'
        for why, text in (("an unknown key", header + entry + "stream_const = true\n"),
                          ("an order missing a function", header + 'order = ["aclnnX"]\n' + entry),
                          ("a function declared twice", header + entry + entry),
                          ("a header without doc", '[[header]]\nfile = "aclnn_x.h"\n' + entry)):
            with self.subTest(why), self.assertRaises(SystemExit):
                declared(text)


if __name__ == "__main__":
    unittest.main()
