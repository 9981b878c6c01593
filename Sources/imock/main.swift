#if canImport(Glibc)
import Glibc
#endif
import IMockServer

exit(IMockCommand.run(Array(CommandLine.arguments.dropFirst())))
