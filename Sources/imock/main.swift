#if canImport(Glibc)
import Glibc
#endif

exit(CommandTable.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.variables()))
