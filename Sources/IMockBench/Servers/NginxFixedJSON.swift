/// nginx as the HTTP ceiling of the `rest` scenario: one worker answering each REST call of
/// the mix with a fixed JSON body of the same shape as imock's (no work behind it).
enum NginxFixedJSON {
    static func configuration(port: UInt16, prefix: String) -> String {
        let token = #"{"access_token":"YWMtfixed","expires_in":604800,"application":"fixed"}"#
        let entity = #"{"uuid":"00000000-0000-0000-0000-000000000000","type":"user","created":0,"modified":0,"username":"fixed","activated":true}"#
        let users = #"{"action":"post","application":"fixed","path":"/users","uri":"fixed","entities":[\#(entity)],"timestamp":0,"duration":0,"organization":"bench","applicationName":"im"}"#
        let user = #"{"action":"get","path":"/users","uri":"fixed","entities":[\#(entity)],"timestamp":0,"duration":0,"count":1}"#
        return """
            daemon off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            events { worker_connections 4096; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/body;
                keepalive_requests 1000000;
                server {
                    listen 127.0.0.1:\(port);
                    default_type application/json;
                    location ~ ^/[^/]+/[^/]+/token$ { return 200 '\(token)'; }
                    location ~ ^/[^/]+/[^/]+/users$ { return 200 '\(users)'; }
                    location / { return 200 '\(user)'; }
                }
            }

            """
    }
}
