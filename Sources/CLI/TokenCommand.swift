import JobSpec

/// `revue token`: a JWT for development.
enum TokenCommand: RevueCommand {
    static let spec = CommandSpec(
        ["token"],
        summary: "Print an API token (JWT, HS256) for development.",
        discussion: "Signed with REVUE_API_KEY / REVUE_API_SECRET, or the pair `revue serve` keeps in HOME/api-credentials.json.",
        options: [
            CommonOptions.home,
            OptionSpec("role", value: "ROLE", help: "crawler (REST API) or rtc (joins rooms).", default: "crawler",
                       allowed: TokenClaims.Role.allowedValues, repeatable: true),
            OptionSpec("room-id", value: "ID", help: "Limit the token to one room."),
            OptionSpec("expires-in", value: "SECONDS", help: "Lifetime.", default: "86400"),
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let lifetime = try arguments.seconds("expires-in") ?? 86400
        let authenticator = try ServiceSetup.authenticator(home: ServiceSetup.home(arguments))
        let roles = arguments.values("role").compactMap(TokenClaims.Role.init(apiValue:))
        Console.print(try authenticator.token(roles: roles.isEmpty ? [.crawler] : roles, roomID: arguments.value("room-id"), expiresIn: lifetime))
        return 0
    }
}
