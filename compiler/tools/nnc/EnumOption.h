//===- EnumOption.h - options that take one of a set of names ---*- C++ -*-===//
//
// Part of nnc. An llvm::cl parser for options that take one of a fixed set
// of named values (an enum, a stage): an unknown name is refused with the
// list of the valid ones. The values come from cl::values or from a table.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TOOLS_NNC_ENUMOPTION_H
#define NNC_TOOLS_NNC_ENUMOPTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace nnc {

/// Parses one of the option's named values. An unknown one is an error
/// that lists them: "unknown value 'fp16'; expected fp32, tf32 or bf16".
template <typename T> class EnumParser : public llvm::cl::parser<T> {
  using Base = llvm::cl::parser<T>;

public:
  using Base::Base;

  /// True on error, as every cl parser.
  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, T &value) {
    llvm::StringRef name = this->Owner.hasArgStr() ? arg : argName;
    for (const auto &known : this->Values)
      if (known.Name == name) {
        value = known.V.getValue();
        return false;
      }
    return option.error("unknown value '" + name + "'; expected " +
                        listNames());
  }

private:
  /// "a", "a or b", "a, b or c".
  std::string listNames() const {
    std::string list;
    for (size_t i = 0, e = this->Values.size(); i != e; ++i) {
      if (i)
        list += i + 1 == e ? " or " : ", ";
      list += this->Values[i].Name.str();
    }
    return list;
  }
};

/// An option whose value is one of `T`'s named values.
template <typename T> using EnumOption = llvm::cl::opt<T, false, EnumParser<T>>;

/// The named values of an enum option, built from a table where cl::values
/// needs them written out: each entry's name, value and description.
template <typename T> struct EnumValues {
  struct Entry {
    llvm::StringRef name;
    T value;
    llvm::StringRef help;
  };
  llvm::SmallVector<Entry> entries;

  /// Applied by cl::opt's constructor, as cl::values.
  template <typename Opt> void apply(Opt &option) const {
    for (const Entry &entry : entries)
      option.getParser().addLiteralOption(entry.name, entry.value, entry.help);
  }
};

} // namespace nnc

#endif // NNC_TOOLS_NNC_ENUMOPTION_H
