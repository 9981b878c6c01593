#if canImport(Glibc)
import Glibc
#endif
import IMockHarness
import IMockServer

let arguments = Array(CommandLine.arguments.dropFirst())
exit(arguments.first == "run" ? RunCommand.main(Array(arguments.dropFirst())) : IMockCommand.run(arguments))
